"""``manage.py restore FILE``: a backup file (``-``: standard input) into this site's empty database.

Everything is checked before the database is touched (docs/operators/backups.md#restoring); ``--check`` stops
there and changes nothing.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from judge.backups.manifest import BackupError
from judge.backups.schema import describe
from judge.backups.services import check_backup, restore_backup


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into this site's database (an empty one unless --force)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file; - reads it from standard input")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace everything in a database that is not empty (stop the site first)",
        )
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="accept a backup of an older schema and apply this code's newer migrations to it",
        )
        parser.add_argument(
            "--check", action="store_true", help="only read and check the file against this code; change nothing"
        )

    def handle(self, file: str, force: bool, migrate: bool, check: bool, **options):
        try:
            if check:
                with tempfile.TemporaryDirectory(prefix="judge-restore-") as work:
                    manifest, _, comparison = check_backup(file, Path(work), migrate=True)
                newer = f"; {len(comparison.missing)} newer migrations would follow (--migrate)" * bool(
                    comparison.missing
                )
                self.stdout.write(
                    f"{file} is a whole {manifest.engine} backup of {describe(manifest.schema_state)} "
                    f"(version {manifest.app_version}, taken {manifest.created_at:%Y-%m-%d %H:%M} UTC)"
                    f"{newer}."
                )
                return
            manifest = restore_backup(file, force=force, migrate=migrate)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"Restored the {manifest.engine} backup taken {manifest.created_at:%Y-%m-%d %H:%M} UTC "
            f"(version {manifest.app_version}, {describe(manifest.schema_state)})."
        )
