"""Where npjudge keeps the server's address and your token: ``config.json`` in the user's config directory,
readable by you alone (mode 0600). ``NPJUDGE_SERVER`` and ``NPJUDGE_TOKEN`` override it (for CI)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from platformdirs import user_config_dir

DEFAULT_SERVER = "http://127.0.0.1:8000"


def config_path() -> Path:
    folder = os.environ.get("NPJUDGE_CONFIG_DIR") or user_config_dir("npjudge")
    return Path(folder) / "config.json"


def load() -> dict:
    try:
        saved = json.loads(config_path().read_text())
    except (OSError, ValueError):
        saved = {}
    server = os.environ.get("NPJUDGE_SERVER") or saved.get("server") or DEFAULT_SERVER
    token = os.environ.get("NPJUDGE_TOKEN") or saved.get("token") or ""
    return {"server": server.rstrip("/"), "token": token}


def save(server: str, token: str) -> Path:
    """Written through a file opened 0600 from the start: the token is never readable by others, even briefly."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump({"server": server.rstrip("/"), "token": token}, file)
    os.chmod(path, 0o600)  # an older file keeps its mode through O_CREAT
    return path
