"""Write operations on problems: drafts, the publish gate, importing packages.

The database is the source of truth for problems: ``Problem.draft_files`` holds
each package's working copy, whether it came from ``problems/`` in git
(``sync_problems``), a zip upload or the staff editor.  A draft goes live only
when the gate (``gate.py``), run in a sandbox, passes.
"""

from __future__ import annotations

import contextlib
import logging
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from judge.grading.arrays import pack_inputs, unpack_inputs
from judge.grading.checks import KnownWrong
from judge.grading.grader import Case, ProblemSpec
from judge.grading.sandboxes import open_sandbox
from judge.problems.gate import GateOutcome, run_gate
from judge.problems.models import (
    GateRun, GateStatus, KnownWrongOutcome, Problem, TestCase, TestSet, WrongSolution,
)
from judge.problems.packages import SLUG, Package, PackageError, discover, load_package
from sandbox.backends.base import Sandbox, SandboxError

log = logging.getLogger(__name__)


@dataclass
class SyncOutcome:
    slug: str
    action: str  # created | updated | unchanged | skipped | draft
    cases: int = 0
    note: str = ""


def learning_path(packages: list[Package], known: set[str]) -> list[str]:
    """Order slugs so that prerequisites come first (ties: difficulty, then slug)."""
    by_slug = {p.slug: p for p in packages}
    for package in packages:
        missing = [s for s in package.prerequisites if s not in by_slug and s not in known]
        if missing:
            raise PackageError(f"{package.slug}/problem.toml: prerequisites name unknown problem(s) {missing}")
    rank = {"easy": 0, "medium": 1, "hard": 2}
    ordered, placed = [], set(known) - set(by_slug)
    pending = sorted(packages, key=lambda p: (rank[p.difficulty], p.slug))
    while pending:
        ready = [p for p in pending if all(s in placed for s in p.prerequisites)]
        if not ready:
            raise PackageError(f"prerequisites form a cycle among {[p.slug for p in pending]}")
        ordered.append(ready[0].slug)
        placed.add(ready[0].slug)
        pending.remove(ready[0])
    return ordered


def sync_problems(root: Path | None = None, only: list[str] | None = None, force: bool = False,
                  sandbox: Sandbox | None = None) -> list[SyncOutcome]:
    """Import every package under ``root`` into the database and run its gate; idempotent.

    A problem edited in the browser since its last import is skipped (its draft
    in the database is the newer version) unless ``force`` is set.
    """
    root = root or settings.PROBLEMS_DIR
    paths = discover(root)
    packages = [load_package(path) for path in paths]
    if only:
        unknown = set(only) - {p.slug for p in packages}
        if unknown:
            raise PackageError(f"no package named {', '.join(sorted(unknown))} under {root}")
    order = learning_path(packages, set(Problem.objects.values_list("slug", flat=True)))
    files = {path.name: files_from_folder(path) for path in paths}
    outcomes = []
    with _sandbox(sandbox) as box:
        for package in packages:
            if only and package.slug not in only:
                continue
            outcomes.append(sync_package(package, order.index(package.slug), files[package.slug], box, force))
    return outcomes


def sync_package(package: Package, path_order: int, files: dict[str, str], sandbox: Sandbox,
                 force: bool = False) -> SyncOutcome:
    existing = Problem.objects.filter(slug=package.slug).first()
    imported = existing and (existing.imported_hash or existing.package_hash)
    edited = existing and existing.draft_hash not in ("", imported)  # in the browser, since the import
    if existing and imported == package.content_hash and existing.current_test_set_id and not (force and edited):
        if existing.path_order != path_order:
            Problem.objects.filter(pk=existing.pk).update(path_order=path_order)
        return SyncOutcome(package.slug, "unchanged", existing.current_test_set.cases.count())
    if edited and not force:
        return SyncOutcome(package.slug, "skipped", 0, "edited in the browser since the last import; "
                                                       "download it into problems/ or pass --force")
    problem = save_draft(package.slug, files, imported=True, path_order=path_order)
    run = run_gate_now(problem, trigger="sync", sandbox=sandbox)
    if not run.passed:
        return SyncOutcome(package.slug, "draft", 0, _gate_summary(run))
    problem.refresh_from_db()
    return SyncOutcome(package.slug, "updated" if existing else "created", problem.current_test_set.cases.count())


# --------------------------------------------------------------------------
# Drafts: the working copy of a package, from git, a zip upload or the browser
# --------------------------------------------------------------------------

SAFE_PATH = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99})?$")
MAX_FILES = 100
MAX_FILE_BYTES = 256 * 1024
MAX_PACKAGE_BYTES = 2 * 1024 * 1024


def files_from_folder(path: Path) -> dict[str, str]:
    files = {}
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        name = str(file.relative_to(path))
        try:
            files[name] = file.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise PackageError(f"{path.name}/{name}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return files


def check_files(slug: str, files: dict[str, str]) -> None:
    """Paths and sizes; the contents are checked by ``load_package``."""
    if len(files) > MAX_FILES:
        raise PackageError(f"{slug}: {len(files)} files; at most {MAX_FILES} are allowed")
    total = 0
    for name, text in files.items():
        if not SAFE_PATH.match(name) or ".." in name.split("/"):
            raise PackageError(f"{slug}/{name}: not an allowed file name (letters, digits, _ . -, one folder level)")
        size = len(text.encode("utf-8", errors="surrogatepass"))
        if size > MAX_FILE_BYTES:
            raise PackageError(f"{slug}/{name}: {size:,} bytes; a file may have at most {MAX_FILE_BYTES:,}")
        total += size
    if total > MAX_PACKAGE_BYTES:
        raise PackageError(f"{slug}: {total:,} bytes in all; a package may have at most {MAX_PACKAGE_BYTES:,}")


def package_from_files(slug: str, files: dict[str, str]) -> Package:
    """Validate a package given as {path: text}, exactly as a folder in problems/ would be."""
    if not SLUG.match(slug):
        raise PackageError(f"{slug}: the slug must match {SLUG.pattern}")
    check_files(slug, files)
    with tempfile.TemporaryDirectory(prefix="package-") as tmp:
        folder = Path(tmp) / slug
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        folder.mkdir(exist_ok=True)
        return load_package(folder)


def save_draft(slug: str, files: dict[str, str], user=None, imported: bool = False,
               path_order: int | None = None) -> Problem:
    """Store a new working copy of a package (validated first; a malformed one changes nothing)."""
    package = package_from_files(slug, files)
    known = set(Problem.objects.exclude(slug=slug).values_list("slug", flat=True))
    missing = [s for s in package.prerequisites if s not in known]
    if missing and not imported:
        raise PackageError(f"{slug}/problem.toml: prerequisites name unknown problem(s) {missing}")
    with transaction.atomic():
        problem = Problem.objects.select_for_update().filter(slug=slug).first()
        if problem is None:
            order = path_order if path_order is not None else Problem.objects.count()
            problem = Problem(slug=slug, published=False, **_fields(package, order))
        elif not problem.published:
            order = path_order if path_order is not None else problem.path_order
            for name, value in _fields(package, order).items():
                setattr(problem, name, value)
        problem.draft_files, problem.draft_hash = files, package.content_hash
        if imported:
            problem.imported_hash = package.content_hash
        else:
            problem.edited_by, problem.edited_at = user, timezone.now()
        problem.save()
    return problem


def draft_package(problem: Problem) -> Package:
    return package_from_files(problem.slug, problem.draft_files)


# --------------------------------------------------------------------------
# The publish gate: runs in a sandbox; a pass publishes the draft and its tests
# --------------------------------------------------------------------------

# content hash -> a passed outcome, oldest first: the gate is deterministic, and
# tests and bin/run import the same packages again and again.
_passed_gates: dict[str, GateOutcome] = {}
PASSED_GATES_KEPT = 16


def request_gate_run(problem: Problem, user=None) -> GateRun:
    """Queue a gate run on the current draft; a Celery worker runs it."""
    with transaction.atomic():
        run = GateRun.objects.create(problem=problem, package_hash=problem.draft_hash, requested_by=user)
        transaction.on_commit(lambda: _enqueue_gate(run.pk))
    return run


def _enqueue_gate(run_id: int) -> None:
    from judge.problems.tasks import run_gate_task

    try:
        run_gate_task.delay(run_id)
    except Exception:
        log.exception("could not enqueue gate run %s", run_id)
        GateRun.objects.filter(pk=run_id, status=GateStatus.QUEUED).update(
            status=GateStatus.DONE, passed=False, error="the task queue is unreachable; try again",
            finished_at=timezone.now())


def run_gate_now(problem: Problem, user=None, trigger: str = "command", sandbox: Sandbox | None = None) -> GateRun:
    run = GateRun.objects.create(problem=problem, package_hash=problem.draft_hash, requested_by=user, trigger=trigger)
    execute_gate_run(run.pk, sandbox)
    run.refresh_from_db()
    return run


def execute_gate_run(run_id: int, sandbox: Sandbox | None = None) -> bool:
    """Run a queued gate run (claimed with a compare-and-set); True if this call ran it."""
    if GateRun.objects.filter(pk=run_id, status=GateStatus.QUEUED).update(status=GateStatus.RUNNING) != 1:
        return False
    run = GateRun.objects.select_related("problem").get(pk=run_id)
    problem = run.problem
    try:
        package = draft_package(problem)
        if package.content_hash != run.package_hash:
            raise PackageError("the draft changed after this run was requested; run the checks again")
        outcome = _passed_gates.get(package.content_hash)
        if outcome is None:
            with _sandbox(sandbox) as box:
                outcome = run_gate(package, box, settings.MAX_OUTPUT_BYTES)
            if outcome.passed:
                _passed_gates[package.content_hash] = outcome
                while len(_passed_gates) > PASSED_GATES_KEPT:
                    del _passed_gates[next(iter(_passed_gates))]
    except (PackageError, SandboxError) as exc:
        GateRun.objects.filter(pk=run_id).update(status=GateStatus.DONE, passed=False, error=str(exc),
                                                 finished_at=timezone.now())
        return True
    except Exception as exc:
        log.exception("gate run %s failed", run_id)
        GateRun.objects.filter(pk=run_id).update(status=GateStatus.DONE, passed=False,
                                                 error=f"the judge failed while checking ({type(exc).__name__})",
                                                 finished_at=timezone.now())
        raise
    with transaction.atomic():
        if outcome.passed:
            publish_package(problem, package, outcome)
        GateRun.objects.filter(pk=run_id).update(status=GateStatus.DONE, passed=outcome.passed,
                                                 checks=outcome.as_list(), finished_at=timezone.now())
    return True


def publish_package(problem: Problem, package: Package, outcome: GateOutcome) -> TestSet:
    """Make a gated package live: its fields, its test set (a new version if the tests changed)."""
    test_set, fresh = TestSet.objects.get_or_create(problem=problem, version=package.content_hash)
    if fresh:
        store_cases(test_set, outcome.cases)
    fields = _fields(package, problem.path_order)
    Problem.objects.filter(pk=problem.pk).update(**fields, current_test_set=test_set, published=True)
    problem.wrong_solutions.all().delete()
    WrongSolution.objects.bulk_create(
        WrongSolution(problem=problem, file=w.file, code=w.code, fails_with=w.fails_with,
                      name=w.name, explanation=w.explanation, see=w.see)
        for w in package.wrong
    )
    return test_set


def store_cases(test_set: TestSet, cases: list[Case]) -> None:
    stored = TestCase.objects.bulk_create(
        TestCase(test_set=test_set, index=i, name=c.name, hidden=c.hidden,
                 inputs=pack_inputs(c.inputs), expected=c.expected)
        for i, c in enumerate(cases)
    )
    KnownWrongOutcome.objects.bulk_create(
        KnownWrongOutcome(case=row, position=j, name=k.name, explanation=k.explanation, see=k.see,
                          status=k.status, output=k.output, signature=k.signature)
        for row, case in zip(stored, cases) for j, k in enumerate(case.known_wrong)
    )


def unpublish_problem(problem: Problem) -> None:
    Problem.objects.filter(pk=problem.pk).update(published=False)


def _gate_summary(run: GateRun) -> str:
    failed = [c for c in run.checks if c.get("passed") is False]
    if run.error:
        return f"gate failed: {run.error}"
    return "gate failed: " + "; ".join(f"{c['key']}: {c['detail'].splitlines()[0]}" for c in failed)


class _LazySandbox(Sandbox):
    """Opens the configured sandbox on first use: an unchanged or cached sync starts no containers."""

    name = "lazy"

    def __init__(self) -> None:
        self.inner: Sandbox | None = None

    def run(self, job):
        if self.inner is None:
            self.inner = open_sandbox()
        return self.inner.run(job)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


@contextlib.contextmanager
def _sandbox(sandbox: Sandbox | None):
    if sandbox is not None:
        yield sandbox
        return
    with _LazySandbox() as box:
        yield box


def _fields(package: Package, path_order: int) -> dict:
    return {
        "title": package.title, "summary": package.summary, "difficulty": package.difficulty,
        "tags": package.tags, "prerequisites": package.prerequisites, "path_order": path_order,
        "statement_md": package.statement, "theory_md": package.theory, "hints": package.hints,
        "starter_code": package.starter, "solution_code": package.solution,
        "function_name": package.function, "params": package.params,
        "time_limit_s": package.time_limit_s, "memory_mb": package.memory_mb,
        "rtol": package.rtol, "atol": package.atol, "package_hash": package.content_hash,
    }


def problem_spec(problem: Problem) -> ProblemSpec:
    return ProblemSpec(problem.function_name, list(problem.params), problem.time_limit_s,
                       problem.memory_mb, problem.rtol, problem.atol, settings.MAX_OUTPUT_BYTES)


def load_cases(test_set: TestSet, visible_only: bool = False) -> list[Case]:
    cases = test_set.cases.prefetch_related("known_wrong")
    if visible_only:
        cases = cases.filter(hidden=False)
    return [Case(c.name, c.hidden, unpack_inputs(bytes(c.inputs)), bytes(c.expected), _known_wrong(c))
            for c in cases]


def _known_wrong(case: TestCase) -> tuple[KnownWrong, ...]:
    return tuple(
        KnownWrong(k.name, k.explanation, k.see, k.status, bytes(k.output) if k.output is not None else None,
                   k.signature)
        for k in case.known_wrong.all()
    )
