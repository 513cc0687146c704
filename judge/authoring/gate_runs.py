"""The publish gate's runs: queued by staff or sync, run in a sandbox.

The gate itself (what is checked) is the engine's (``engine/gate.py``); this
module stores its outcome: the run's checks and, when it passes, the version's
test set with what each known-wrong solution did, ready to publish.  A run from
the workbench only checks: staff publish a passed draft as a separate step
(``lifecycle.publish_draft``, after reviewing what changes).  ``sync_problems``
and ``validate_problem`` publish what passes, as git is their review.
"""

from __future__ import annotations

import hashlib
import logging
import secrets

from django.conf import settings
from django.db import transaction

from engine.arrays import pack_inputs
from engine.gate import GateOutcome, run_gate
from engine.package import Package, PackageError
from engine.pool import POOL_DRAWS, add_pool
from engine.speed import BENCH_DRAWS, add_benchmark
from engine.spec import Case
from judge.authoring import lifecycle
from judge.lib.binary_rows import binary_parameters
from judge.lib.broker import enqueue_on_commit
from judge.lib.sandbox_backend import lazy_sandbox
from judge.problems.drafts import draft_package
from judge.problems.models import (
    BenchmarkCase, GateRun, KnownWrongOutcome, Problem, TestCase, TestSet,
)
from judge.submissions.composition import reference_code
from sandbox.backends.base import Sandbox, SandboxError

log = logging.getLogger(__name__)
GATE_TASK = "judge.authoring.tasks.run_gate"  # sent by name: judge.authoring.tasks imports this module

# content hash -> a passed outcome, oldest first: the gate is deterministic, and
# tests and bin/run import the same packages again and again.
_passed_gates: dict[str, GateOutcome] = {}
PASSED_GATES_KEPT = 128  # more than the course has problems: tests and bin/run sync them all, often


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


def run_gate_now(problem: Problem, user=None, trigger: str = "command", sandbox: Sandbox | None = None,
                 publish: bool = True) -> GateRun:
    run = lifecycle.queue_gate_run(problem, user, trigger)
    execute_gate_run(run.pk, sandbox, publish=publish)
    run.refresh_from_db()
    return run


def execute_gate_run(run_id: int, sandbox: Sandbox | None = None, publish: bool = False) -> bool:
    """Run a queued gate run (claimed with a compare-and-set); True if this call ran it.

    A pass stores the version's test set; ``publish`` also makes it live in the same transaction.
    """
    if not lifecycle.start_gate_run(run_id):
        return False
    run = GateRun.objects.select_related("problem").get(pk=run_id)
    problem = run.problem
    try:
        package = draft_package(problem)
        if package.content_hash != run.package_hash:
            raise PackageError("the draft changed after this run was requested; run the checks again")
        # The problems it builds on lend their published references (``from solved import ...``).
        solved = reference_code(package.problem.builds_on)
        key = package.content_hash + "".join(sorted(hashlib.sha256(c.encode()).hexdigest() for c in solved.values()))
        outcome = _passed_gates.get(key)
        if outcome is None:
            with lazy_sandbox(sandbox) as box:
                outcome = run_gate(package, box, settings.MAX_OUTPUT_BYTES, solved=solved)
                if outcome.passed:
                    add_pool(outcome, package, box, secret_seeds(), settings.MAX_OUTPUT_BYTES, solved)
                if outcome.passed:
                    log.info("%s: %s", package.slug, add_benchmark(outcome, package, box, secret_seeds(BENCH_DRAWS),
                                                                  settings.MAX_OUTPUT_BYTES))
            if outcome.passed:
                _passed_gates[key] = outcome
                while len(_passed_gates) > PASSED_GATES_KEPT:
                    del _passed_gates[next(iter(_passed_gates))]
    except (PackageError, SandboxError) as exc:
        lifecycle.finish_gate_run(run_id, passed=False, error=str(exc))
        return True
    except Exception as exc:
        log.exception("gate run %s failed", run_id)
        lifecycle.finish_gate_run(run_id, passed=False,
                                  error=f"the judge failed while checking ({type(exc).__name__})")
        raise
    with transaction.atomic():
        if outcome.passed:
            test_set = store_test_set(problem, package, outcome)
            if publish:
                lifecycle.publish(problem, package, outcome.budget_s, test_set, run.requested_by)
        lifecycle.finish_gate_run(run_id, outcome.passed, checks=outcome.as_list(), test_order=outcome.order)
    return True


def store_test_set(problem: Problem, package: Package, outcome: GateOutcome) -> TestSet:
    """The gated package's test set (a new version if the tests changed), with its files and time budget."""
    test_set, fresh = TestSet.objects.get_or_create(problem=problem, version=package.content_hash)
    if fresh:
        with binary_parameters():  # tens of MB of arrays: as bytes, not as escaped text
            store_cases(test_set, outcome.cases + outcome.pool)
            BenchmarkCase.objects.bulk_create(
                BenchmarkCase(test_set=test_set, index=i, name=c.name, variant=c.variant,
                              inputs=pack_inputs(c.inputs), expected=c.expected)
                for i, c in enumerate(outcome.benchmark))
    # ``package`` was read from these files (``draft_package``), so they hash to its version.
    TestSet.objects.filter(pk=test_set.pk).update(files=problem.draft_files, budget_s=outcome.budget_s)
    return test_set


def store_cases(test_set: TestSet, cases: list[Case]) -> None:
    stored = TestCase.objects.bulk_create(
        TestCase(test_set=test_set, index=i, name=c.name, hidden=c.hidden, probe=c.probe, variant=c.variant,
                 inputs=pack_inputs(c.inputs), expected=c.expected, fd_expected=c.fd_expected)
        for i, c in enumerate(cases)
    )
    KnownWrongOutcome.objects.bulk_create(
        KnownWrongOutcome(case=row, position=j, name=k.name, explanation=k.explanation, see=k.see,
                          status=k.status, output=k.output, signature=k.signature)
        for row, case in zip(stored, cases) for j, k in enumerate(case.known_wrong)
    )

