from __future__ import annotations

import logging
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from engine.package import PackageError
from judge.authoring.sync import sync_problems


class Command(BaseCommand):
    help = "Import the problem packages under problems/ and publish those that pass the gate (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slugs", nargs="*", help="only these problems")
        parser.add_argument("--root", type=Path, default=None, help="folder holding the packages")
        parser.add_argument(
            "--force", action="store_true", help="import even problems edited in the browser since their last import"
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="gates run at once (each in a sandbox of its own), after what they build on",
        )

    def handle(self, *args, slugs: list[str], root: Path | None, force: bool, jobs: int, **options) -> None:
        job_log = logging.getLogger("sandbox.jobs")
        level = job_log.level
        if options.get("verbosity", 1) < 2:  # a line per sandbox job of every gate: hundreds per problem
            job_log.setLevel(logging.WARNING)
        try:
            outcomes = sync_problems(root, only=slugs or None, force=force, jobs=jobs)
        except PackageError as exc:
            raise CommandError(f"malformed problem package: {exc}", returncode=2) from None
        finally:
            job_log.setLevel(level)  # called from a process that goes on (a test, bin/run's first start)
        for outcome in outcomes:
            note = f" - {outcome.note}" if outcome.note else ""
            self.stdout.write(f"{outcome.slug}: {outcome.action} ({outcome.cases} tests){note}")
