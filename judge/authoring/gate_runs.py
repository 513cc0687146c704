"""The publish gate's runs: queued by staff or sync, run in a sandbox.

The gate itself (what is checked) is the engine's (``engine/gate.py``); this
module stores its outcome: the run's checks and, when it passes, the version's
test set with what each known-wrong solution did, ready to publish.  A run from
the workbench only checks: staff publish a passed draft as a separate step
(``lifecycle.publish_draft``, after reviewing what changes).  ``sync_problems``
and ``validate_problem`` publish what passes, as git is their review.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import ProtectedError

from engine.arrays import pack_inputs
from engine.gate import GateOutcome, check_reference, finish_gate, run_gate
from engine.package import Package, PackageError
from engine.pool import POOL_DRAWS, add_pool
from engine.spec import Case
from engine.speed import BENCH_DRAWS, add_benchmark
from judge.authoring import lifecycle
from judge.lib.binary_rows import binary_parameters
from judge.lib.broker import enqueue_on_commit
from judge.lib.sandbox_backend import lazy_sandbox
from judge.problems.drafts import draft_package
from judge.problems.models import (
    BenchmarkCase,
    GateRun,
    KnownWrongOutcome,
    Problem,
    TestCase,
    TestSet,
)
from judge.submissions.composition import reference_code
from sandbox.backends.base import Sandbox, SandboxError

log = logging.getLogger(__name__)
GATE_TASK = "judge.authoring.tasks.run_gate"  # sent by name: judge.authoring.tasks imports this module


class PassedGates:
    """This process's passed gates by content (package and solved references), the newest ``kept``: a worker
    asked to gate content it passed already (staff pressing Gate again, another sync of an unchanged package)
    records that outcome, secret draws and benchmark included, instead of running the gate again."""

    def __init__(self, kept: int) -> None:
        self.kept, self.outcomes = kept, dict[str, GateOutcome]()

    def get(self, key: str) -> GateOutcome | None:
        return self.outcomes.get(key)

    def add(self, key: str, outcome: GateOutcome) -> None:
        self.outcomes[key] = outcome
        while len(self.outcomes) > self.kept:
            del self.outcomes[next(iter(self.outcomes))]


passed_gates = PassedGates(kept=128)  # more than the catalogue has problems


def secret_seeds(count: int = POOL_DRAWS) -> list[int]:
    """Seeds for the pool of hidden cases (and the benchmark's draws): drawn here, never stored; the cases
    they give are (``TestCase``, ``BenchmarkCase``)."""
    return [secrets.randbits(63) for _ in range(count)]


def request_gate_run(problem: Problem, user=None) -> GateRun:
    """Queue a gate run on the current draft; a Celery worker runs it."""
    with transaction.atomic():
        run = lifecycle.queue_gate_run(problem, user)
        enqueue_on_commit(GATE_TASK, run.pk, on_failure=lambda: _gate_unreachable(run.pk))
    return run


def _gate_unreachable(run_id: int) -> None:
    lifecycle.fail_gate_run(run_id, "the task queue is unreachable; try again")


def run_gate_now(
    problem: Problem, user=None, trigger: str = "command", sandbox: Sandbox | None = None, publish: bool = True
) -> GateRun:
    run = lifecycle.queue_gate_run(problem, user, trigger)
    execute_gate_run(run.pk, sandbox, publish=publish)
    run.refresh_from_db()
    return run


def execute_gate_run(run_id: int, sandbox: Sandbox | None = None, publish: bool = False) -> bool:
    """Run a queued gate run (claimed with a compare-and-set); True if this call ran it.

    A pass stores the version's test set; ``publish`` also makes it live in the same transaction.
    """
    run = _claim(run_id)
    if run is None:
        return False
    loaded = _load(run)
    if loaded is None:
        return True
    package, solved = loaded
    outcome = _guarded(
        run_id, lambda: passed_gates.get(_gate_key(package, solved)) or _full_gate(package, solved, sandbox)
    )
    if outcome is not None:
        _record(run, package, outcome, publish)
    return True


@dataclass
class Listed:
    """A sync's gate run whose first part passed: its problem is listed, the rest of its gate is still to run
    (``finish_gate_run``).  Kept in memory by the sync; a sync stopped before the rest ran leaves the problem
    on a test set its next sync replaces (``LISTING_MARK``)."""

    run: GateRun
    package: Package
    solved: dict[str, str]
    outcome: GateOutcome


def list_gate_run(run_id: int, sandbox: Sandbox | None = None) -> Listed | None:
    """The first part of a sync's gate run on a problem not listed yet (``engine.gate.check_reference``): once
    its expected outputs are proven right, the problem is listed on a test set without what its known-wrong
    solutions do, its secret draws or its speed benchmark, and the rest of the gate runs later
    (``finish_gate_run``), so a fresh start lists every problem in a fraction of the whole gates' time.
    None when the run ended here: it failed, or a passed gate of this version was known and it is done."""
    run = _claim(run_id)
    loaded = _load(run) if run is not None else None
    if run is None or loaded is None:
        return None
    package, solved = loaded
    known = passed_gates.get(_gate_key(package, solved))
    if known is not None:
        _record(run, package, known, publish=True)
        return None

    def first_part() -> GateOutcome:
        with lazy_sandbox(sandbox) as box:
            return check_reference(package, box, settings.MAX_OUTPUT_BYTES, solved=solved)

    outcome = _guarded(run_id, first_part)
    if outcome is None:
        return None
    if not outcome.listable:
        _record(run, package, outcome, publish=True)
        return None
    with transaction.atomic():
        test_set = store_test_set(run.problem, package, outcome, version=listing_version(package))
        lifecycle.publish(
            run.problem,
            package,
            outcome.budget_s,
            test_set,
            run.requested_by,
            passed="the gate's reference checks (the rest of the gate runs next)",
        )
        GateRun.objects.filter(pk=run_id).update(checks=outcome.as_list(), test_order=outcome.order)
    return Listed(run, package, solved, outcome)


def finish_gate_run(listed: Listed, sandbox: Sandbox | None = None) -> None:
    """The rest of a listed problem's gate: on a pass its complete test set replaces the listing one; a
    failure hides the problem again (its tests do not catch what they should) and says why."""
    run, package, solved = listed.run, listed.package, listed.solved

    def second_part() -> GateOutcome:
        with lazy_sandbox(sandbox) as box:
            return _drawn(finish_gate(listed.outcome, package, box, solved), package, solved, box)

    outcome = _guarded(run.pk, second_part)
    if outcome is None or not outcome.passed:
        lifecycle.unpublish(run.problem)
    if outcome is not None:
        _record(run, package, outcome, publish=True)
    if outcome is not None and outcome.passed:
        drop_listing_test_sets(run.problem)


def drop_listing_test_sets(problem: Problem) -> None:
    """The problem's listing test sets no submission was graded on: a copy of the complete one's arrays."""
    current = Problem.objects.filter(pk=problem.pk).values_list("current_test_set", flat=True).first()
    listing = TestSet.objects.filter(problem=problem, version__startswith=LISTING_MARK)
    for test_set in listing.exclude(pk=current) if current is not None else listing:
        with contextlib.suppress(ProtectedError):  # a Submit graded on it keeps it (and a rejudge its inputs)
            test_set.delete()


LISTING_MARK = "listing-"  # a listing test set's version: the mark and the start of the content hash


def listing_version(package: Package) -> str:
    """A listing test set's version: the mark, then as much of the content hash as the column holds."""
    width = TestSet._meta.get_field("version").max_length
    assert width is not None  # a CharField's
    room = width - len(LISTING_MARK)
    return LISTING_MARK + package.content_hash[:room]


def _claim(run_id: int) -> GateRun | None:
    """A queued run, now running (a compare-and-set); None if another process claimed it."""
    if not lifecycle.start_gate_run(run_id):
        return None
    return GateRun.objects.select_related("problem").get(pk=run_id)


def _load(run: GateRun) -> tuple[Package, dict[str, str]] | None:
    """The run's draft as a package and the references it builds on; None if it cannot be checked (the run
    is done and says why)."""

    def load() -> tuple[Package, dict[str, str]]:
        package = draft_package(run.problem)
        if package.content_hash != run.package_hash:
            raise PackageError("the draft changed after this run was requested; run the checks again")
        # The problems it builds on lend their published references (``from solved import ...``).
        return package, reference_code(package.problem.builds_on)

    return _guarded(run.pk, load)


def _guarded(run_id: int, work):
    """``work()``, or None when it failed: the run is done and says why (a sandbox or package error in the
    author's words, anything else as the judge's failure, logged and raised)."""
    try:
        return work()
    except (PackageError, SandboxError) as exc:
        _fail(run_id, str(exc))
        return None
    except Exception as exc:
        log.exception("gate run %s failed", run_id)
        _fail(run_id, f"the judge failed while checking ({type(exc).__name__})")
        raise


def _fail(run_id: int, error: str) -> None:
    lifecycle.end_gate_run(run_id, passed=False, error=error)


def _gate_key(package: Package, solved: dict[str, str]) -> str:
    return package.content_hash + "".join(sorted(hashlib.sha256(c.encode()).hexdigest() for c in solved.values()))


def _full_gate(package: Package, solved: dict[str, str], sandbox: Sandbox | None) -> GateOutcome:
    with lazy_sandbox(sandbox) as box:
        return _drawn(run_gate(package, box, settings.MAX_OUTPUT_BYTES, solved=solved), package, solved, box)


def _drawn(outcome: GateOutcome, package: Package, solved: dict[str, str], box: Sandbox) -> GateOutcome:
    """A passed gate with its pool of secret draws and its speed benchmark, kept for this version."""
    if outcome.passed:
        add_pool(outcome, package, box, secret_seeds(), settings.MAX_OUTPUT_BYTES, solved)
    if outcome.passed:
        log.info(
            "%s: %s",
            package.slug,
            add_benchmark(outcome, package, box, secret_seeds(BENCH_DRAWS), settings.MAX_OUTPUT_BYTES),
        )
        passed_gates.add(_gate_key(package, solved), outcome)
    return outcome


def _record(run: GateRun, package: Package, outcome: GateOutcome, publish: bool) -> None:
    """The run's end: its checks, and when it passed the version's test set (live too, if ``publish``)."""
    with transaction.atomic():
        if outcome.passed:
            test_set = store_test_set(run.problem, package, outcome)
            if publish:
                lifecycle.publish(run.problem, package, outcome.budget_s, test_set, run.requested_by)
        lifecycle.end_gate_run(run.pk, outcome.passed, checks=outcome.as_list(), test_order=outcome.order)


def store_test_set(problem: Problem, package: Package, outcome: GateOutcome, version: str | None = None) -> TestSet:
    """The gated package's test set (a new version if the tests changed), with its files and time budget."""
    test_set, fresh = TestSet.objects.get_or_create(problem=problem, version=version or package.content_hash)
    if fresh:
        with binary_parameters():  # tens of MB of arrays: as bytes, not as escaped text
            store_cases(test_set, outcome.cases + outcome.pool)
            BenchmarkCase.objects.bulk_create(
                BenchmarkCase(
                    test_set=test_set,
                    index=i,
                    name=c.name,
                    variant=c.variant,
                    inputs=pack_inputs(c.inputs),
                    expected=c.expected,
                )
                for i, c in enumerate(outcome.benchmark)
            )
    # ``package`` was read from these files (``draft_package``), so they hash to its version.
    TestSet.objects.filter(pk=test_set.pk).update(files=problem.draft_files, budget_s=outcome.budget_s)
    return test_set


def store_cases(test_set: TestSet, cases: list[Case]) -> None:
    stored = TestCase.objects.bulk_create(
        TestCase(
            test_set=test_set,
            index=i,
            name=c.name,
            hidden=c.hidden,
            probe=c.probe,
            variant=c.variant,
            inputs=pack_inputs(c.inputs),
            expected=c.expected,
            fd_expected=c.fd_expected,
        )
        for i, c in enumerate(cases)
    )
    KnownWrongOutcome.objects.bulk_create(
        KnownWrongOutcome(
            case=row,
            position=j,
            name=k.name,
            explanation=k.explanation,
            see=k.see,
            status=k.status,
            output=k.output,
            signature=k.signature,
        )
        for row, case in zip(stored, cases)
        for j, k in enumerate(case.known_wrong)
    )
