from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from judge.authoring.gate_runs import run_gate_now
from judge.problems.models import Problem


class Command(BaseCommand):
    help = (
        "Run the publish gate on a problem's current draft, in a real sandbox; "
        "publishes it if every check passes (the workbench asks first). Exit status 1 if a check fails."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")

    def handle(self, *args, slug: str, **options) -> None:
        problem = Problem.objects.filter(slug=slug).first()
        if problem is None:
            raise CommandError(f"unknown problem {slug!r}; load it with sync_problems first", returncode=2)
        run = run_gate_now(problem, trigger="command")
        for check in run.checks:
            mark = {True: "PASS", False: "FAIL", None: "----"}[check["passed"]]
            if check.get("applies") is False:
                mark = "n/a "
            self.stdout.write(f"{mark} {check['title']}")
            for line in check["detail"].splitlines():
                self.stdout.write(f"       {line}")
        if run.error:
            self.stdout.write(f"FAIL {run.error}")
        if not run.passed:
            raise CommandError(f"{slug}: the gate failed; the problem stays a draft", returncode=1)
        self.stdout.write(self.style.SUCCESS(f"{slug}: every check passed; published"))
