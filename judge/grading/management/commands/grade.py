from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from engine.gate import run_gate
from engine.grading import GradeReport
from engine.package import PackageError, load_package
from judge.grading.services import grade_with_sandbox
from judge.lib.sandbox_backend import open_sandbox
from judge.lib.validation import SubmissionRejected, validate_code


class Command(BaseCommand):
    help = "Grade solution files against a problem's tests, synchronously, as the workers do."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--sandbox", choices=("process", "docker"), default=None)
        parser.add_argument("--json", action="store_true", help="print one JSON list")

    def handle(self, *args, slug: str, files: list[Path], sandbox: str | None, json: bool, **options) -> None:
        package_dir = settings.PROBLEMS_DIR / slug
        if not (package_dir / "problem.toml").is_file():
            raise CommandError(f"unknown problem {slug!r}: no package at {package_dir}", returncode=2)
        codes = [self.read(path) for path in files]
        try:
            package = load_package(package_dir)
        except PackageError as exc:
            raise CommandError(f"malformed problem package: {exc}", returncode=2) from None
        spec = package.spec(settings.MAX_OUTPUT_BYTES)
        # ``from solved import ...`` gives the references of the problems it builds on, here as in its gate.
        solved = {
            slug: (settings.PROBLEMS_DIR / slug / "solution.py").read_text(encoding="utf-8")
            for slug in package.problem.builds_on
            if (settings.PROBLEMS_DIR / slug / "solution.py").is_file()
        }
        reports = []
        # One container: several files go through the same warm sandbox, in order.
        with open_sandbox(sandbox, pool_size=1) as box:
            # The gate builds the tests in the sandbox, with what each known-wrong solution does on them.
            gate = run_gate(package, box, settings.MAX_OUTPUT_BYTES, solved=solved)
            cases = gate.cases
            if not cases:
                failure = gate.first_failure()
                raise CommandError(f"cannot build the tests: {failure.detail if failure else 'unknown'}", returncode=2)
            for path, code in zip(files, codes):
                report = grade_with_sandbox(code, spec, cases, box, solved=solved)
                reports.append((path, report))
                if not json:
                    self.print_report(path, report)
        if json:
            self.stdout.write(_json_dumps([as_json(path, report) for path, report in reports]))

    def read(self, path: Path) -> str:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}", returncode=2) from None
        try:
            return validate_code(data)
        except SubmissionRejected as exc:
            raise CommandError(f"{path}: {exc}", returncode=2) from None

    def print_report(self, path: Path, report: GradeReport) -> None:
        self.stdout.write(f"{path}: {report.verdict}" + (f" - {report.message}" if report.message else ""))
        for test in report.tests:
            where = "hidden" if test.hidden else "visible"
            self.stdout.write(f"  {test.status:<22} {test.name} ({where}, {test.time_ms:.1f} ms) {test.message}")
            if test.misconception:
                see = f" (see {test.misconception['see']})" if test.misconception["see"] else ""
                self.stdout.write(
                    f"  {'':<22} misconception: {test.misconception['name']}. {test.misconception['explanation']}{see}"
                )
        # What the student's page shows above the tests: the properties the problem's probes found broken.
        for broken in report.properties:
            see = f" (see {broken['see']})" if broken.get("see") else ""
            explanation = f" {broken['explanation']}" if broken.get("explanation") else ""
            self.stdout.write(f"  property broken: {broken['name']}. {broken['message']}{explanation}{see}")
        self.stdout.write(f"  graded in {report.time_ms:.1f} ms")


def as_json(path: Path, report: GradeReport) -> dict:
    return {
        "file": str(path),
        "verdict": report.verdict,
        "message": report.message,
        "tests": [
            {"name": t.name, "hidden": t.hidden, "status": t.status, "message": t.message, "time_ms": t.time_ms}
            for t in report.tests
        ],
        "time_ms": report.time_ms,
        "misconceptions": [{"test": t.name, **t.misconception} for t in report.tests if t.misconception],
        "properties": [dict(p) for p in report.properties],
    }


def _json_dumps(data) -> str:
    return json.dumps(data, indent=2)
