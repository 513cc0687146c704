"""The publish gate: prove a package's tests right before students see it.

Everything runs through a real sandbox (the generator with the ``generate``
op, the reference, the starter and every known-wrong solution with ``run``),
and the results are checked here, in order.  The gate also records what each
known-wrong solution did on each test, which is what misconception diagnosis
compares students' results with.  No Django models here: ``services`` stores
the outcome.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from engine.arrays import UnreadableArray, read_npy
from engine.checks import KnownWrong, TestResult, error_signature, type_signature
from engine.events import Malformed, TestEvent
from engine.grading import GradeReport, interpret, job_of, run_order
from engine.members import Returns, packed_output
from engine.package import Package, PackageError, WrongSpec
from engine.probes import evaluate_probes
from engine.spec import Case, ProblemSpec
from engine.testset import (
    GeneratedCase,
    ReferenceFailed,
    finite_difference_outputs,
    generate_cases,
    reference_outputs,
)
from engine.verdicts import TestStatus, Verdict
from sandbox.backends.base import Sandbox
from sandbox.protocol import MAX_OUTPUT_BYTES

HEADROOM = 5  # the slowest reference test times this must stay under the time limit
HEADROOM_RETRIES = 2  # runs of the reference again before a limit is found too tight (a sync at load 9 failed two)
KNOWN_OUTPUT_MAX_BYTES = 4 * 1024 * 1024
ARRAY_STATUSES = {TestStatus.WRONG_DTYPE, TestStatus.WRONG_SHAPE, TestStatus.WRONG_VALUE, TestStatus.INPUT_MUTATED}

CHECKS = (
    ("generator", "The generator runs and yields valid cases"),
    ("reference", "The reference solution passes every test"),
    (
        "float64",
        (
            "Every expected output is an array of its declared dtype, float64 unless declared (and of the "
            "declared shape, where declared)"
        ),
    ),
    ("deterministic", "Two runs give identical inputs and expected outputs"),
    ("headroom", f"The time limit is more than {HEADROOM}x the reference's slowest test"),
    ("starter", "The starter code does not pass"),
    ("wrong", "Every known-wrong solution fails with the check it declares"),
    ("probes", "Every probe holds for the reference and fires for the known-wrong solutions that declare it"),
    ("fd", "The reference agrees with the finite-difference estimate, where the package has one"),
    ("pool", "Secret seeds draw new hidden cases, with the reference's outputs and the known-wrong outcomes"),
)
# The submission's time budget, unless the manifest sets one: this many times the reference's
# total time, at least one test's limit plus a second, and at most every test's limit together.
BUDGET_FACTOR = 20
BUDGET_FLOOR_S = 1.0


# What ``check_reference`` proves: once these pass, the expected outputs are right and a Submit can be graded.
LISTING_CHECKS = ("generator", "reference", "float64", "headroom", "fd")


class ReferenceRun(NamedTuple):
    generated: list[GeneratedCase]
    expected: list[bytes]
    events: dict[str, dict[str, Any]]  # the reference's raw test event by case name


@dataclass
class GateCheck:
    key: str
    title: str
    passed: bool | None = None  # None: not run, because an earlier check failed
    detail: str = "not run: an earlier check failed"
    applies: bool = True  # False: the package has nothing for it to check (it counts as passed)


@dataclass
class GateOutcome:
    checks: list[GateCheck]
    cases: list[Case] = field(default_factory=list)  # with what each known-wrong solution did
    pool: list[Case] = field(default_factory=list)  # hidden cases drawn with secret seeds (engine/pool.py)
    budget_s: float | None = None  # the submission's time budget the gate settled on
    order: list[dict[str, Any]] = field(default_factory=list)  # [{"name", "hidden"}]: the tests in the order they run
    benchmark: list[Case] = field(default_factory=list)  # secret draws speed is measured on (engine/speed.py)
    max_output_bytes: int = MAX_OUTPUT_BYTES
    # Between ``check_reference`` and ``finish_gate``: what the second part compares a second run with.
    reference: ReferenceRun | None = field(default=None, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    @property
    def listable(self) -> bool:
        """The first part passed: the expected outputs are right, so the tests can grade."""
        return all(self.check(key).passed for key in LISTING_CHECKS)

    def check(self, key: str) -> GateCheck:
        return next(c for c in self.checks if c.key == key)

    def as_list(self) -> list[dict[str, Any]]:
        return [asdict(check) for check in self.checks]

    def first_failure(self) -> GateCheck | None:
        return next((c for c in self.checks if c.passed is False), None)


def run_gate(
    package: Package, sandbox: Sandbox, max_output_bytes: int = MAX_OUTPUT_BYTES, solved: dict[str, str] | None = None
) -> GateOutcome:
    """Check ``package``; ``solved`` (slug -> code) are the references of the problems it builds on, which the
    reference, the starter and the known-wrong solutions may import (``from solved import <slug>``)."""
    return finish_gate(check_reference(package, sandbox, max_output_bytes, solved), package, sandbox, solved)


def check_reference(
    package: Package, sandbox: Sandbox, max_output_bytes: int = MAX_OUTPUT_BYTES, solved: dict[str, str] | None = None
) -> GateOutcome:
    """The gate's first part: what makes the expected outputs right (the generator, the reference and its
    outputs, the finite-difference estimate, the time limit's headroom).  Once it passes, the tests can grade;
    ``finish_gate`` checks that they catch what they should (``outcome.listable``)."""
    outcome = GateOutcome([GateCheck(key, title) for key, title in CHECKS], max_output_bytes=max_output_bytes)
    spec = package.spec(max_output_bytes)
    _not_applicable(outcome, package, spec)
    try:
        generated = generate_cases(package, sandbox)
    except PackageError as exc:
        return _fail(outcome, "generator", str(exc))
    visible = sum(not c.hidden for c in generated)
    probes = sum(c.probe for c in generated)
    _pass(
        outcome,
        "generator",
        f"{len(generated) - probes} cases, {visible} visible" + (f"; {probes} probe inputs" if probes else ""),
    )
    try:
        expected, times = reference_outputs(package, generated, sandbox, max_output_bytes)
    except ReferenceFailed as exc:
        if exc.check == "float64":
            _set(outcome, "reference", False, "its results cannot serve as expected outputs (next check)")
        return _fail(outcome, exc.check, str(exc))
    declared = sum(c.shape is not None for c in generated)
    dtypes = "".join(f"; {name or 'the output'} {dtype}" for name, dtype in spec.dtypes.items())
    _pass(
        outcome,
        "float64",
        f"{len(expected)} outputs of the declared dtypes (float64{dtypes}); "
        f"{declared} with a declared shape, all matching",
    )
    try:
        estimates = finite_difference_outputs(package, generated, sandbox, max_output_bytes)
    except ReferenceFailed as exc:
        return _fail(outcome, "fd", str(exc))
    cases = [
        Case(c.name, c.hidden, c.inputs, output, probe=c.probe, fd_expected=estimates.get(c.name))
        for c, output in zip(generated, expected)
    ]
    outcome.order = [{"name": c.name, "hidden": c.hidden} for c in run_order(cases) if not c.probe]

    report, events = execute(sandbox, package.solution, spec, cases, solved)
    failure = _first_failure(report)
    _set(
        outcome,
        "reference",
        failure is None,
        f"accepted on all {len(report.tests)} tests"
        if failure is None
        else f"{failure.name}: {failure.status} {failure.message}",
    )
    _set(
        outcome,
        "fd",
        failure is None or "finite-difference" not in failure.message,
        f"{len(estimates)} tests also checked against a finite-difference estimate"
        if estimates
        else "no finite-difference estimate (not a backward problem)",
    )
    limit_ms = spec.time_limit_s * 1000
    slowest, runs = max(times + [t.time_ms for t in report.tests]), 1
    while slowest * HEADROOM >= limit_ms and runs <= HEADROOM_RETRIES:
        # A busy machine slows every run; a reference that is really too slow is slow in each of them.
        again, _ = execute(sandbox, package.solution, spec, cases, solved)
        slowest, runs = min(slowest, max(t.time_ms for t in again.tests)), runs + 1
    best = f" (the best of {runs} runs)" if runs > 1 else ""
    _set(
        outcome,
        "headroom",
        slowest * HEADROOM < limit_ms,
        f"slowest reference test {slowest:.1f} ms{best}, limit {limit_ms:.0f} ms "
        f"({limit_ms / max(slowest, 0.001):.0f}x)",
    )
    outcome.budget_s = spec.budget_s or default_budget(spec, sum(times) / 1000, len(report.tests))
    outcome.cases = cases
    outcome.reference = ReferenceRun(generated, expected, events)
    return outcome


def finish_gate(
    outcome: GateOutcome, package: Package, sandbox: Sandbox, solved: dict[str, str] | None = None
) -> GateOutcome:
    """The gate's second part, after ``check_reference`` passed: the tests are deterministic and catch the
    starter and every known-wrong solution (recorded on ``outcome.cases``), and the probes hold."""
    if not outcome.listable or outcome.reference is None:
        return outcome
    spec, cases, (generated, expected, events) = (
        package.spec(outcome.max_output_bytes),
        outcome.cases,
        outcome.reference,
    )
    _set(outcome, "deterministic", *_determinism(package, sandbox, generated, expected, events))
    starter, _ = execute(sandbox, package.starter, spec, cases, solved)
    _set(outcome, "starter", starter.verdict != Verdict.ACCEPTED, f"starter code: {starter.verdict}")
    known: dict[str, list[KnownWrong]] = {case.name: [] for case in cases}
    details, probe_details = [], _reference_probes(spec, cases, events)
    for wrong in package.wrong:
        wrong_report, wrong_events = execute(sandbox, wrong.code, spec, cases, solved)
        details.append(_check_wrong(wrong, wrong_report, wrong_events, known, spec.returns))
        probe_details += _wrong_probes(wrong, wrong_report)
    _set(outcome, "wrong", all(d.startswith("ok") for d in details), "\n".join(details) or "no known-wrong solutions")
    _set(
        outcome,
        "probes",
        all(d.startswith("ok") for d in probe_details),
        "\n".join(probe_details) if spec.probes else "no probes declared",
    )
    outcome.cases = [dataclasses.replace(case, known_wrong=tuple(known[case.name])) for case in cases]
    outcome.reference = None
    _pass(outcome, "pool", "no secret draws asked for: every submission gets the seed's hidden cases")
    return outcome


def default_budget(spec: ProblemSpec, reference_total_s: float, tests: int) -> float:
    floor = spec.time_limit_s + BUDGET_FLOOR_S
    return round(max(floor, min(BUDGET_FACTOR * reference_total_s, tests * spec.time_limit_s)), 3)


def execute(
    sandbox: Sandbox, code: str, spec: ProblemSpec, cases: list[Case], solved: dict[str, str] | None = None
) -> tuple[GradeReport, dict[str, dict[str, Any]]]:
    """Grade ``code`` as a submission is (in run order, but without a budget); keep each case's raw event by name."""
    spec, cases = dataclasses.replace(spec, budget_s=None), run_order(cases)
    events = sandbox.run(job_of(code, spec, cases, solved)).events
    tests = [e for e in events if e.get("event") == "test"]
    report = interpret(events, spec, cases, signatures=False)  # the gate's reports are never mined
    return report, {case.name: raw for case, raw in zip(cases, tests)}


def _reference_probes(spec: ProblemSpec, cases: list[Case], events: dict[str, dict[str, Any]]) -> list[str]:
    probe_cases = [case for case in cases if case.probe]
    broken = {p["name"] for p in evaluate_probes(spec, probe_cases, events)}
    return [
        ("FAIL " if probe.name in broken else "ok   ")
        + f"the reference {'breaks' if probe.name in broken else 'satisfies'}"
        f" {probe.name!r}"
        for probe in spec.probes
    ]


def _wrong_probes(wrong: WrongSpec, report: GradeReport) -> list[str]:
    fired = {p["name"] for p in report.properties}
    return [
        ("ok   " if name in fired else "FAIL ") + f"{wrong.file} {'triggers' if name in fired else 'does not trigger'}"
        f" {name!r}"
        for name in wrong.probes
    ]


def _determinism(
    package: Package,
    sandbox: Sandbox,
    generated: list[GeneratedCase],
    expected: list[bytes],
    events: dict[str, dict[str, Any]],
) -> tuple[bool, str]:
    try:
        again = generate_cases(package, sandbox)
    except PackageError as exc:
        return False, f"the second run failed: {exc}"
    if [(c.name, c.hidden, c.inputs) for c in again] != [(c.name, c.hidden, c.inputs) for c in generated]:
        differing = next((a.name for a, b in zip(again, generated) if a != b), "the number of cases")
        return False, f"the generator's second run differs (first at {differing}); seed every random draw from rng"
    for case, want in zip(generated, expected):
        output = _output_of(events.get(case.name, {}), package.problem.returns)
        if output is None or output != want:
            return False, f"the reference's second run differs on {case.name}"
    return True, f"{len(generated)} cases: identical inputs and expected outputs"


def _check_wrong(
    wrong: WrongSpec,
    report: GradeReport,
    events: dict[str, dict[str, Any]],
    known: dict[str, list[KnownWrong]],
    returns: Returns | None = None,
) -> str:
    for result in report.tests:
        entry = known_outcome(wrong, result.status, events.get(result.name, {}), returns)
        if entry is not None:
            known.setdefault(result.name, []).append(entry)
    # Any failing hidden test's status will do: the order the tests run in is the judge's, not the author's.
    counts: dict[str, int] = {}
    for test in report.tests:
        if test.hidden and test.status not in (TestStatus.PASSED, TestStatus.NOT_RUN):
            counts[test.status] = counts.get(test.status, 0) + 1
    got = (
        ", ".join(f"{status} on {n} test{'s' * (n > 1)}" for status, n in counts.items())
        or f"{report.verdict} (no hidden test failed)"
    )
    ok = report.verdict != Verdict.ACCEPTED and wrong.fails_with in counts
    verdict = "ok  " if ok else "FAIL "
    return f"{verdict}{wrong.file}: declares {wrong.fails_with}, its failing hidden tests give {got}"


def known_outcome(
    wrong: WrongSpec, status: str, raw: dict[str, Any], returns: Returns | None = None
) -> KnownWrong | None:
    """What ``wrong`` did on one test, as misconception diagnosis compares it; None if there is nothing to keep.

    A pass is kept too (status only): code that fails where the known-wrong solution passed is not making that
    mistake. So is running out of time or memory (status only), which is all such a run leaves to compare."""
    if status == TestStatus.NOT_RUN:
        return None
    if status in (TestStatus.PASSED, TestStatus.TIME_LIMIT_EXCEEDED, TestStatus.MEMORY_LIMIT_EXCEEDED):
        return KnownWrong(wrong.name, wrong.explanation, wrong.see, status)
    try:
        event = TestEvent.parse(raw)
    except Malformed:
        return None
    output, signature = None, ""
    if status in ARRAY_STATUSES:
        output = _output_of(raw, returns)
        if output is None or len(output) > KNOWN_OUTPUT_MAX_BYTES:
            return None
    elif status == TestStatus.RUNTIME_ERROR:
        signature = error_signature(event)
    elif status == TestStatus.WRONG_TYPE:
        signature = type_signature(event, returns)
    else:
        return None
    return KnownWrong(wrong.name, wrong.explanation, wrong.see, status, output, signature)


def _output_of(raw: dict[str, Any], returns: Returns | None = None) -> bytes | None:
    """The returned .npy (a single output) or packed members (several), if it could be read."""
    try:
        event = TestEvent.parse(raw)
        if returns is not None:
            return packed_output(event, returns, KNOWN_OUTPUT_MAX_BYTES * 4)
        if event.output is None:
            return None
        read_npy(event.output, KNOWN_OUTPUT_MAX_BYTES * 4)
    except (Malformed, UnreadableArray):
        return None
    return event.output


def _first_failure(report: GradeReport) -> TestResult | _Named | None:
    if report.verdict == Verdict.ACCEPTED:
        return None
    return next((t for t in report.tests if t.status != TestStatus.PASSED), None) or _Named(report)


class _Named:
    def __init__(self, report: GradeReport) -> None:
        self.name, self.status, self.message = "(before the tests)", report.verdict, report.message


def _not_applicable(outcome: GateOutcome, package: Package, spec: ProblemSpec) -> None:
    """Checks the package gives nothing to check say so (and count as passed) rather than show a tick."""
    missing = {
        "wrong": not package.wrong and "problem.toml declares no [[wrong]] known-wrong solutions",
        "probes": not spec.probes and "problem.toml declares no [[probes]]",
        "fd": not package.finite_difference and "the package has no finite_difference.py (not a backward problem)",
    }
    for key, reason in missing.items():
        if reason:
            check = outcome.check(key)
            check.passed, check.applies, check.detail = True, False, f"not applicable: {reason}"


def _set(outcome: GateOutcome, key: str, passed: bool, detail: str) -> None:
    check = outcome.check(key)
    if check.applies:
        check.passed, check.detail = passed, detail


def _pass(outcome: GateOutcome, key: str, detail: str) -> None:
    _set(outcome, key, True, detail)


def _fail(outcome: GateOutcome, key: str, detail: str) -> GateOutcome:
    _set(outcome, key, False, detail)
    return outcome
