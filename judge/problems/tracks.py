"""The catalogue's tracks (``problems/tracks.toml``) as the pages show them, read again only when the file changes."""

from __future__ import annotations

import functools
from pathlib import Path

from engine.package import TRACKS, PackageError, load_tracks


def catalogue_tracks(root: Path) -> list[dict]:
    """The tracks in order ({"slug", "title", "summary"}); none if the file is missing or malformed (the sync
    reports a malformed file, the list then shows one section)."""
    try:
        stamp = (root / TRACKS).stat().st_mtime_ns
    except OSError:
        return []
    return _tracks(root, stamp)


@functools.lru_cache(maxsize=4)
def _tracks(root: Path, stamp: int) -> list[dict]:
    try:
        return load_tracks(root)
    except PackageError:
        return []
