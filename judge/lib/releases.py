"""This site's version, and the schema of every release cut so far.

The version is ``pyproject.toml``'s (the app image carries the file; a checkout reads it in place). A release's
schema is written down here, not read from a git tag, because a fresh clone (CI's) may have no tags: each release
records the last migration of every app at the commit it was cut from. The upgrade test migrates an empty
database to the latest release's schema, fills it, and migrates it to HEAD; a backup names the release whose
schema it holds. How a release is cut: docs/contributors/releases.md.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
DISTRIBUTION = "numpy-transformer-judge"


@dataclass(frozen=True)
class Release:
    version: str
    date: str  # the day it was cut (ISO)
    commit: str  # the commit it was cut from, to be tagged v<version>
    migrations: dict[str, str]  # app label -> the last migration applied at that release


RELEASES: tuple[Release, ...] = (
    # The first release, recorded after the fact: main as it stood before the manual, the audit rows for tokens and
    # LMS set-up, and the grading desk's points by hand and comments (CHANGELOG.md, 1.0.0).
    Release(
        version="1.0.0",
        date="2026-12-07",
        commit="0737468",
        migrations={
            "accounts": "0001_initial",
            "admin": "0003_logentry_add_action_flag_choices",
            "auth": "0012_alter_user_first_name_max_length",
            "authoring": "0003_audit_publish_and_sync",
            "contenttypes": "0002_remove_content_type_name",
            "courses": "0001_initial",
            "leaderboard": "0004_username_search_index",
            "learning": "0001_initial",
            "lti": "0001_initial",
            "problems": "0009_sync_run",
            "sessions": "0001_initial",
            "submissions": "0010_once_per_click_per_problem",
            "tokens": "0001_initial",
        },
    ),
)


def latest_release() -> Release:
    return RELEASES[-1]


def release_with_schema(schema: dict[str, list[str]]) -> Release | None:
    """The release whose schema is exactly ``schema`` (app -> its last migrations), if one is."""
    for release in RELEASES:
        if schema == {app: [name] for app, name in release.migrations.items()}:
            return release
    return None


@cache
def version() -> str:
    """The version in pyproject.toml; an installed copy without the file reads its installed metadata."""
    try:
        with PYPROJECT.open("rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except FileNotFoundError:
        return metadata.version(DISTRIBUTION)
