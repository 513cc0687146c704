"""PostgreSQL: ``pg_dump -Fc`` while the site runs, ``pg_restore`` into one transaction.

The dump and the manifest's schema state come from one snapshot: a connection opens a repeatable-read transaction,
exports its snapshot, reads ``django_migrations`` in it, and pg_dump dumps that same snapshot (``--snapshot``), so a
``migrate`` running meanwhile cannot make the manifest disagree with the data.

A restore turns the dump into SQL (``pg_restore -f``) and runs it with ``psql --single-transaction``, after
``DROP SCHEMA public CASCADE`` when it replaces a database's contents: either everything is restored or nothing is
changed. The client programs must be of the server's major version or newer (postgresql-client in the app image).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from judge.backups.manifest import BackupError

Key = tuple[str, str]
LIBPQ_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout")
# An extension's COMMENT belongs to its owner (a superuser): restoring it as the site's own user fails, and it
# carries nothing the site reads.
SKIPPED_ENTRIES = ("COMMENT - EXTENSION",)
LOCK_TIMEOUT = "15s"  # a replaced database still in use (the site not stopped) fails the restore, not hangs it


def libpq_params(db: dict) -> dict[str, str]:
    params = {
        "dbname": db["NAME"],
        "user": db.get("USER") or "",
        "password": db.get("PASSWORD") or "",
        "host": db.get("HOST") or "",
        "port": str(db.get("PORT") or ""),
    }
    options = db.get("OPTIONS") or {}
    params.update({name: str(options[name]) for name in LIBPQ_OPTIONS if name in options})
    return {name: value for name, value in params.items() if value}


def connect(db: dict) -> psycopg.Connection:
    return psycopg.connect(make_conninfo(**libpq_params(db)))


def client_env(db: dict) -> dict[str, str]:
    """The environment for pg_dump, pg_restore and psql: the password never appears on a command line."""
    env = dict(os.environ)
    names = {
        "dbname": "PGDATABASE",
        "user": "PGUSER",
        "password": "PGPASSWORD",
        "host": "PGHOST",
        "port": "PGPORT",
        "sslmode": "PGSSLMODE",
        "sslrootcert": "PGSSLROOTCERT",
        "sslcert": "PGSSLCERT",
        "sslkey": "PGSSLKEY",
        "connect_timeout": "PGCONNECT_TIMEOUT",
    }
    env.update({names[name]: value for name, value in libpq_params(db).items()})
    return env


def run(args: list[str], db: dict, **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(args, env=client_env(db), capture_output=True, **kwargs)
    except FileNotFoundError:
        raise BackupError(
            f"{args[0]} is not installed: install PostgreSQL's client programs (Debian: "
            f"postgresql-client) of the server's major version or newer."
        ) from None


def failed(what: str, result: subprocess.CompletedProcess) -> BackupError:
    stderr = result.stderr.decode(errors="replace").strip() if isinstance(result.stderr, bytes) else result.stderr
    return BackupError(f"{what} failed: {stderr or f'exit status {result.returncode}'}")


def dump(db: dict, path: Path) -> set[Key]:
    """The whole database into ``path``; returns the migrations applied in the snapshot dumped."""
    try:
        connection = connect(db)
    except psycopg.Error as exc:
        raise BackupError(f"Cannot connect to the database {db['NAME']!r}: {exc}") from None
    with connection:
        connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        row = connection.execute("SELECT pg_export_snapshot()").fetchone()
        assert row is not None
        applied = {(app, name) for app, name in connection.execute("SELECT app, name FROM django_migrations")}
        result = run(["pg_dump", "--format=custom", f"--snapshot={row[0]}", f"--file={path}"], db)
        connection.rollback()
    if result.returncode != 0:
        raise failed("pg_dump", result)
    return applied


def check(db: dict, path: Path) -> None:
    result = run(["pg_restore", "--list", str(path)], db)
    if result.returncode != 0:
        raise BackupError(
            "The backup's database dump cannot be read by pg_restore "
            f"({result.stderr.decode(errors='replace').strip()}): the file is damaged."
        )


def is_empty(db: dict) -> bool:
    """No table, view or sequence outside PostgreSQL's own schemas."""
    try:
        with connect(db) as connection:
            row = connection.execute(
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND n.nspname <> 'information_schema' "
                "AND n.nspname NOT LIKE 'pg\\_%'"
            ).fetchone()
    except psycopg.Error as exc:
        raise BackupError(f"Cannot connect to the database {db['NAME']!r}: {exc}") from None
    return row is not None and row[0] == 0


def load(db: dict, path: Path, replace: bool) -> None:
    """The dump into the database, in one transaction; ``replace`` drops everything in its public schema first."""
    listing = run(["pg_restore", "--list", str(path)], db, text=True)
    if listing.returncode != 0:
        raise failed("pg_restore --list", listing)
    entries = path.with_suffix(".list")
    entries.write_text(
        "".join(
            line + "\n"
            for line in listing.stdout.splitlines()
            if not any(skipped in line for skipped in SKIPPED_ENTRIES)
        )
    )
    script = path.with_suffix(".sql")
    result = run(
        ["pg_restore", "--no-owner", "--no-privileges", f"--use-list={entries}", f"--file={script}", str(path)], db
    )
    if result.returncode != 0:
        raise failed("pg_restore", result)
    prelude = [f"SET lock_timeout = '{LOCK_TIMEOUT}'"]
    if replace:
        prelude += [
            "DROP SCHEMA IF EXISTS public CASCADE",
            "CREATE SCHEMA public",
            "GRANT USAGE ON SCHEMA public TO PUBLIC",
        ]
    result = run(
        [
            "psql",
            "--no-psqlrc",
            "--quiet",
            "--set=ON_ERROR_STOP=1",
            "--single-transaction",
            f"--command={'; '.join(prelude)}",
            f"--file={script}",
        ],
        db,
    )
    script.unlink()
    if result.returncode != 0:
        raise failed("Restoring the dump (nothing was changed)", result)
