"""The embedded default's SQLite database: copied with sqlite3's online backup API, both ways.

Backing up reads the live file in one read transaction while the site goes on (WAL: writers do not wait for a
reader), so the copy is the database as one commit left it. Restoring copies the verified file onto the site's in
one write transaction of the destination: it is replaced whole or not at all.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from judge.backups.manifest import BackupError

Key = tuple[str, str]
BUSY_TIMEOUT_S = 20  # as the site's own connections wait for the write lock (judge/settings.py)


def dump(db: dict, path: Path) -> set[Key]:
    source_path = Path(db["NAME"])
    if not source_path.is_file():
        raise BackupError(f"There is no SQLite database at {source_path}: nothing to back up.")
    source = sqlite3.connect(source_path, timeout=BUSY_TIMEOUT_S)
    copy = sqlite3.connect(path)
    try:
        source.backup(copy)
        return applied_in(copy)
    finally:
        copy.close()
        source.close()


def applied_in(connection: sqlite3.Connection) -> set[Key]:
    try:
        return {(app, name) for app, name in connection.execute("SELECT app, name FROM django_migrations")}
    except sqlite3.OperationalError:  # never migrated
        return set()


def check(db: dict, path: Path) -> None:
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = connection.execute("PRAGMA integrity_check").fetchone()
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"The backup's SQLite database cannot be read ({exc}): the file is damaged.") from None
    if result is None or result[0] != "ok":
        raise BackupError(f"The backup's SQLite database fails its integrity check ({result}): the file is damaged.")


def is_empty(db: dict) -> bool:
    path = Path(db["NAME"])
    if not path.exists():
        return True
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    try:
        row = connection.execute(
            "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ).fetchone()
    finally:
        connection.close()
    return row is not None and row[0] == 0


def load(db: dict, path: Path, replace: bool) -> None:
    target = Path(db["NAME"])
    target.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    destination = sqlite3.connect(target, timeout=BUSY_TIMEOUT_S)
    try:
        source.backup(destination)
    except sqlite3.OperationalError as exc:
        raise BackupError(
            f"Restoring into {target} failed ({exc}); nothing was changed. Stop the site first."
        ) from None
    finally:
        destination.close()
        source.close()
