"""A backup file: a tar archive of two members, the manifest first and then the database.

    manifest.json        what the file holds (below), read and checked before anything is restored
    database.pgdump      PostgreSQL's custom format (pg_dump -Fc), or
    database.sqlite3     a copy of the embedded SQLite database (sqlite3's online backup)

The manifest is parsed as untrusted data (a file may come from anywhere an operator copied it): a typed schema,
and the database member's size and SHA-256 checked before it is used.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FORMAT = "numpy-judge-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
MEMBERS = {"postgresql": "database.pgdump", "sqlite": "database.sqlite3"}
MAX_MANIFEST_BYTES = 64 * 1024

Engine = Literal["postgresql", "sqlite"]


class BackupError(Exception):
    """A backup that cannot be taken or restored; the message says why, and nothing was changed."""


class DatabaseMember(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["numpy-judge-backup"]
    format_version: int
    app_version: str = Field(max_length=64)
    created_at: datetime
    engine: Engine
    schema_state: dict[str, list[str]] = Field(alias="schema")
    database: DatabaseMember

    def to_json(self) -> bytes:
        return self.model_dump_json(by_alias=True, indent=2).encode() + b"\n"


def parse_manifest(data: bytes) -> Manifest:
    try:
        manifest = Manifest.model_validate_json(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the manifest"
        raise BackupError(
            f"The backup's manifest is not valid ({where}: {first['msg']}); the file is damaged or "
            f"not a backup of this site."
        ) from None
    if manifest.format_version > FORMAT_VERSION:
        raise BackupError(
            f"The backup's format is version {manifest.format_version}, newer than this site reads "
            f"({FORMAT_VERSION}): restore it with version {manifest.app_version} or later."
        )
    if manifest.database.name != MEMBERS[manifest.engine]:
        raise BackupError(
            f"The backup's manifest names the database {manifest.database.name!r}; a "
            f"{manifest.engine} backup holds {MEMBERS[manifest.engine]!r}."
        )
    return manifest
