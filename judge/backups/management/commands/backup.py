"""``manage.py backup FILE``: the site's database, while it runs, into a new backup file (``-``: standard output)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from judge.backups.manifest import BackupError
from judge.backups.schema import describe
from judge.backups.services import STDIO, take_backup


class Command(BaseCommand):
    help = "Back up the database (PostgreSQL through pg_dump, SQLite through its online backup) into a new file."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file to create (it must not exist); - writes to standard output")

    def handle(self, file: str, **options):
        try:
            manifest = take_backup(file)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        # With the backup on standard output, the summary goes to standard error.
        out = sys.stderr if file == STDIO else self.stdout
        out.write(
            f"Backed up the {manifest.engine} database ({describe(manifest.schema_state)}, version "
            f"{manifest.app_version}) to {'standard output' if file == STDIO else file}: "
            f"{manifest.database.bytes:,} bytes, SHA-256 {manifest.database.sha256}.\n"
        )
