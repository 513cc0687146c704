from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from judge.problems.packages import PackageError
from judge.problems.services import sync_problems


class Command(BaseCommand):
    help = "Load or update the problem packages under problems/ (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slugs", nargs="*", help="only these problems")
        parser.add_argument("--root", type=Path, default=None, help="folder holding the packages")

    def handle(self, *args, slugs: list[str], root: Path | None, **options) -> None:
        try:
            outcomes = sync_problems(root, only=slugs or None)
        except PackageError as exc:
            raise CommandError(f"malformed problem package: {exc}", returncode=2) from None
        for outcome in outcomes:
            self.stdout.write(f"{outcome.slug}: {outcome.action} ({outcome.cases} tests)")
