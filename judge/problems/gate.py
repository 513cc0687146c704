"""The publish gate: prove a package's tests right before students see it.

Everything runs through a real sandbox (the generator with the ``generate``
op, the reference, the starter and every known-wrong solution with ``run``),
and the results are checked here, in order.  The gate also records what each
known-wrong solution did on each test, which is what misconception diagnosis
compares students' results with.  No Django models here: ``services`` stores
the outcome.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from judge.grading.arrays import UnreadableArray, read_npy
from judge.grading.checks import KnownWrong, error_signature
from judge.grading.events import Malformed, TestEvent
from judge.grading.grader import Case, GradeReport, ProblemSpec, interpret
from judge.grading.verdicts import TestStatus, Verdict
from judge.problems.packages import (
    GeneratedCase,
    Package,
    PackageError,
    ReferenceFailed,
    WrongSpec,
    generate_cases,
    job_for,
    reference_outputs,
)
from sandbox.backends.base import Sandbox

HEADROOM = 5  # the slowest reference test times this must stay under the time limit
KNOWN_OUTPUT_MAX_BYTES = 4 * 1024 * 1024
ARRAY_STATUSES = {TestStatus.WRONG_DTYPE, TestStatus.WRONG_SHAPE, TestStatus.WRONG_VALUE, TestStatus.INPUT_MUTATED}

CHECKS = (
    ("generator", "The generator runs and yields valid cases"),
    ("reference", "The reference solution passes every test"),
    ("float64", "Every expected output is a float64 array (of the declared shape, where declared)"),
    ("deterministic", "Two runs give identical inputs and expected outputs"),
    ("headroom", f"The time limit is more than {HEADROOM}x the reference's slowest test"),
    ("starter", "The starter code does not pass"),
    ("wrong", "Every known-wrong solution fails with the check it declares"),
)


@dataclass
class GateCheck:
    key: str
    title: str
    passed: bool | None = None  # None: not run, because an earlier check failed
    detail: str = "not run: an earlier check failed"


@dataclass
class GateOutcome:
    checks: list[GateCheck]
    cases: list[Case] = field(default_factory=list)  # with what each known-wrong solution did

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def check(self, key: str) -> GateCheck:
        return next(c for c in self.checks if c.key == key)

    def as_list(self) -> list[dict]:
        return [asdict(check) for check in self.checks]

    def first_failure(self) -> GateCheck | None:
        return next((c for c in self.checks if c.passed is False), None)


def run_gate(package: Package, sandbox: Sandbox, max_output_bytes: int = 16 * 1024 * 1024) -> GateOutcome:
    outcome = GateOutcome([GateCheck(key, title) for key, title in CHECKS])
    spec = package.spec(max_output_bytes)
    try:
        generated = generate_cases(package, sandbox)
    except PackageError as exc:
        return _fail(outcome, "generator", str(exc))
    visible = sum(not c.hidden for c in generated)
    _pass(outcome, "generator", f"{len(generated)} cases, {visible} visible")
    try:
        expected, times = reference_outputs(package, generated, sandbox, max_output_bytes)
    except ReferenceFailed as exc:
        if exc.check == "float64":
            _set(outcome, "reference", False, "its results cannot serve as expected outputs (next check)")
        return _fail(outcome, exc.check, str(exc))
    declared = sum(c.shape is not None for c in generated)
    _pass(outcome, "float64", f"{len(expected)} float64 outputs; {declared} with a declared shape, all matching")
    cases = [Case(c.name, c.hidden, c.inputs, output) for c, output in zip(generated, expected)]

    report, events = execute(sandbox, package.solution, spec, cases)
    failure = _first_failure(report)
    _set(outcome, "reference", failure is None, f"accepted on all {len(cases)} tests" if failure is None
         else f"{failure.name}: {failure.status} {failure.message}")
    _set(outcome, "deterministic", *_determinism(package, sandbox, generated, expected, events))
    slowest = max(times + [t.time_ms for t in report.tests])
    limit_ms = package.time_limit_s * 1000
    _set(outcome, "headroom", slowest * HEADROOM < limit_ms,
         f"slowest reference test {slowest:.1f} ms, limit {limit_ms:.0f} ms ({limit_ms / max(slowest, 0.001):.0f}x)")

    starter, _ = execute(sandbox, package.starter, spec, cases)
    _set(outcome, "starter", starter.verdict != Verdict.ACCEPTED, f"starter code: {starter.verdict}")
    details, known = [], [[] for _ in cases]
    for wrong in package.wrong:
        ok, line = _check_wrong(wrong, sandbox, spec, cases, known)
        details.append(("ok  " if ok else "FAIL ") + line)
    _set(outcome, "wrong", all(d.startswith("ok") for d in details), "\n".join(details) or "no known-wrong solutions")
    outcome.cases = [Case(c.name, c.hidden, c.inputs, c.expected, tuple(k)) for c, k in zip(cases, known)]
    return outcome


def execute(sandbox: Sandbox, code: str, spec: ProblemSpec, cases: list[Case]) -> tuple[GradeReport, list[dict]]:
    """Grade ``code`` and keep the raw test events (to read its outputs)."""
    events = sandbox.run(job_for(code, spec, cases)).events
    return interpret(events, spec, cases), [e for e in events if e.get("event") == "test"]


def _determinism(package: Package, sandbox: Sandbox, generated: list[GeneratedCase], expected: list[bytes],
                 events: list[dict]) -> tuple[bool, str]:
    try:
        again = generate_cases(package, sandbox)
    except PackageError as exc:
        return False, f"the second run failed: {exc}"
    if [(c.name, c.hidden, c.inputs) for c in again] != [(c.name, c.hidden, c.inputs) for c in generated]:
        differing = next((a.name for a, b in zip(again, generated) if a != b), "the number of cases")
        return False, f"the generator's second run differs (first at {differing}); seed every random draw from rng"
    for case, want, raw in zip(generated, expected, events):
        output = _output_of(raw)
        if output is None or output != want:
            return False, f"the reference's second run differs on {case.name}"
    return True, f"{len(generated)} cases: identical inputs and expected outputs"


def _check_wrong(wrong: WrongSpec, sandbox: Sandbox, spec: ProblemSpec, cases: list[Case],
                 known: list[list[KnownWrong]]) -> tuple[bool, str]:
    report, events = execute(sandbox, wrong.code, spec, cases)
    failure = next((t for t in report.tests if t.hidden and t.status != TestStatus.PASSED), None)
    got = failure.status if failure else report.verdict
    for index, (result, raw) in enumerate(zip(report.tests, events)):
        entry = _known(wrong, result.status, raw)
        if entry is not None:
            known[index].append(entry)
    ok = report.verdict != Verdict.ACCEPTED and got == wrong.fails_with
    return ok, f"{wrong.file}: declares {wrong.fails_with}, first failing hidden test gives {got}"


def _known(wrong: WrongSpec, status: str, raw: dict) -> KnownWrong | None:
    if status == TestStatus.PASSED or status == TestStatus.NOT_RUN:
        return None
    try:
        event = TestEvent.parse(raw)
    except Malformed:
        return None
    output, signature = None, ""
    if status in ARRAY_STATUSES:
        output = _output_of(raw)
        if output is None or len(output) > KNOWN_OUTPUT_MAX_BYTES:
            return None
    elif status == TestStatus.RUNTIME_ERROR:
        signature = error_signature(event)
    elif status == TestStatus.WRONG_TYPE:
        signature = event.type_description
    else:
        return None
    return KnownWrong(wrong.name, wrong.explanation, wrong.see, status, output, signature)


def _output_of(raw: dict) -> bytes | None:
    try:
        event = TestEvent.parse(raw)
        if event.output is None:
            return None
        read_npy(event.output, KNOWN_OUTPUT_MAX_BYTES * 4)
    except (Malformed, UnreadableArray):
        return None
    return event.output


def _first_failure(report: GradeReport):
    if report.verdict == Verdict.ACCEPTED:
        return None
    return next((t for t in report.tests if t.status != TestStatus.PASSED), None) or _Named(report)


class _Named:
    def __init__(self, report: GradeReport) -> None:
        self.name, self.status, self.message = "(before the tests)", report.verdict, report.message


def _set(outcome: GateOutcome, key: str, passed: bool, detail: str) -> None:
    check = outcome.check(key)
    check.passed, check.detail = passed, detail


def _pass(outcome: GateOutcome, key: str, detail: str) -> None:
    _set(outcome, key, True, detail)


def _fail(outcome: GateOutcome, key: str, detail: str) -> GateOutcome:
    _set(outcome, key, False, detail)
    return outcome
