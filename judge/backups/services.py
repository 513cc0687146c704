"""Taking a backup of the site's database and restoring one (``manage.py backup``, ``manage.py restore``).

A restore reads and checks the whole file before it touches the database: the archive and its manifest, the
database member's size and SHA-256, that the dump itself reads back, that its engine is this site's, that its
schema is this code's (or older, with ``migrate``), and that the target database is empty (unless ``force``).
Any of these failing raises ``BackupError`` with what to do, and nothing has changed. The restore itself runs in
one transaction of the target. What a backup holds and why nothing outside the database is in it:
docs/operators/backups.md.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import sys
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import BinaryIO

from django.core.management import call_command
from django.db import connections

from judge.backups import postgres, sqlite
from judge.backups.manifest import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    MAX_MANIFEST_BYTES,
    MEMBERS,
    BackupError,
    Engine,
    Manifest,
    parse_manifest,
)
from judge.backups.schema import Comparison, compare, describe, last_applied
from judge.lib.releases import version

ENGINES: dict[str, ModuleType] = {"postgresql": postgres, "sqlite": sqlite}
ENGINE_NAMES = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}
STDIO = "-"
CHUNK = 1 << 20


def engine_of(alias: str) -> Engine:
    vendor = connections[alias].vendor
    if vendor not in ENGINES:
        raise BackupError(f"Backups cover PostgreSQL and SQLite; this site's database is {vendor}.")
    return "postgresql" if vendor == "postgresql" else "sqlite"


def take_backup(destination: str, alias: str = "default") -> Manifest:
    """The site's database, while it runs, into a new file at ``destination`` (``-``: standard output)."""
    if destination != STDIO and os.path.lexists(destination):
        raise BackupError(f"{destination} already exists: a backup never overwrites a file; choose another name.")
    engine = engine_of(alias)
    db = connections[alias].settings_dict
    with tempfile.TemporaryDirectory(prefix="judge-backup-") as work:
        member = Path(work) / MEMBERS[engine]
        applied = ENGINES[engine].dump(db, member)
        manifest = Manifest.model_validate(
            {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "app_version": version(),
                "created_at": datetime.now(UTC),
                "engine": engine,
                "schema": last_applied(applied),
                "database": {"name": member.name, "bytes": member.stat().st_size, "sha256": sha256_of(member)},
            }
        )
        if destination == STDIO:
            write_archive(sys.stdout.buffer, manifest, member, stream=True)
        else:
            write_file(Path(destination), manifest, member)
    return manifest


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def write_file(path: Path, manifest: Manifest, member: Path) -> None:
    """Written under another name and renamed into place: a file with the backup's name is a whole backup. It
    holds password hashes and the LTI keys, so only its owner reads it."""
    partial = path.with_name(f".{path.name}.partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as file:
            write_archive(file, manifest, member)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def write_archive(out: BinaryIO, manifest: Manifest, member: Path, stream: bool = False) -> None:
    data = manifest.to_json()
    with tarfile.open(fileobj=out, mode="w|" if stream else "w", format=tarfile.PAX_FORMAT) as archive:
        info = tarfile.TarInfo(MANIFEST)
        info.size, info.mode, info.mtime = len(data), 0o600, int(manifest.created_at.timestamp())
        archive.addfile(info, io.BytesIO(data))
        info = tarfile.TarInfo(member.name)
        info.size, info.mode, info.mtime = member.stat().st_size, 0o600, int(manifest.created_at.timestamp())
        with member.open("rb") as file:
            archive.addfile(info, file)


def read_backup(source: str, work: Path) -> tuple[Manifest, Path]:
    """The manifest and the database member of a backup file, checked against each other, into ``work``."""
    path = work / "backup.tar"
    if source == STDIO:
        with path.open("wb") as file:
            shutil.copyfileobj(sys.stdin.buffer, file, CHUNK)
    elif not os.path.isfile(source):
        raise BackupError(f"{source}: no such file.")
    else:
        path = Path(source)
    try:
        with tarfile.open(path, mode="r:") as archive:
            members = archive.getmembers()
            names = [m.name for m in members]
            if not members or names[0] != MANIFEST or not members[0].isfile() or members[0].size > MAX_MANIFEST_BYTES:
                raise BackupError(f"{source} is not a backup of this site: it does not begin with {MANIFEST}.")
            manifest = parse_manifest(_read(archive, members[0]))
            if names[1:] != [manifest.database.name] or not members[1].isfile():
                raise BackupError(
                    f"{source} should hold {MANIFEST} and {manifest.database.name} only; it holds "
                    f"{', '.join(names)}: the file is damaged."
                )
            database = work / manifest.database.name
            size, digest = _extract(archive, members[1], database)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise BackupError(
            f"{source} cannot be read as a backup ({exc}): the file is damaged or not a backup."
        ) from None
    if size != manifest.database.bytes or digest != manifest.database.sha256:
        raise BackupError(
            f"{source}: the database in it is not the one its manifest describes ({size} bytes, "
            f"SHA-256 {digest[:12]}…; the manifest says {manifest.database.bytes} bytes, "
            f"{manifest.database.sha256[:12]}…): the file is damaged."
        )
    return manifest, database


def _read(archive: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    file = archive.extractfile(member)
    assert file is not None
    return file.read()


def _extract(archive: tarfile.TarFile, member: tarfile.TarInfo, path: Path) -> tuple[int, str]:
    file = archive.extractfile(member)
    assert file is not None
    digest, size = hashlib.sha256(), 0
    with path.open("wb") as out:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    return size, digest.hexdigest()


def check_backup(
    source: str, work: Path, alias: str = "default", migrate: bool = False
) -> tuple[Manifest, Path, Comparison]:
    """Everything a restore checks before it changes anything, but whether the target is empty; the database
    member is left in ``work``."""
    manifest, database = read_backup(source, work)
    engine = engine_of(alias)
    if manifest.engine != engine:
        raise BackupError(
            f"{source} is a backup of a {ENGINE_NAMES[manifest.engine]} database; this site's is "
            f"{ENGINE_NAMES[engine]}. Restore it where the site runs on {ENGINE_NAMES[manifest.engine]}."
        )
    ENGINES[engine].check(connections[alias].settings_dict, database)
    comparison = compare(manifest.schema_state)
    if comparison.unknown:
        raise BackupError(
            f"{source} was taken by version {manifest.app_version}, whose schema has migrations this code "
            f"(version {version()}) does not: {', '.join(comparison.unknown)}. Restore it with version "
            f"{manifest.app_version} or later."
        )
    if comparison.missing and not migrate:
        raise BackupError(
            f"{source} holds {describe(manifest.schema_state)} (version {manifest.app_version}), older than this "
            f"code's ({len(comparison.missing)} migrations newer, e.g. {comparison.missing[0]}). Add --migrate to "
            f"restore it and then apply them, or restore it with version {manifest.app_version}."
        )
    return manifest, database, comparison


def restore_backup(source: str, alias: str = "default", force: bool = False, migrate: bool = False) -> Manifest:
    """A backup into this site's database: an empty one, or any with ``force`` (its contents are replaced)."""
    engine = engine_of(alias)
    db = connections[alias].settings_dict
    with tempfile.TemporaryDirectory(prefix="judge-restore-") as work:
        manifest, database, comparison = check_backup(source, Path(work), alias, migrate)
        if not force and not ENGINES[engine].is_empty(db):
            raise BackupError(
                f"The database {db['NAME']} is not empty. Restore into an empty database (a new one, "
                f"before `manage.py migrate`), or add --force to replace everything in it."
            )
        connections[alias].close()
        ENGINES[engine].load(db, database, replace=force)
    if comparison.missing:
        call_command("migrate", database=alias, interactive=False, verbosity=0)
    return manifest
