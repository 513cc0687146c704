"""Grade one submission: run it in a sandbox, then check every result here.

Plain Python (no Django models, no database), called by the Celery task, by
``manage.py grade``, by the publish gate and by tests alike.  Expected outputs
stay in this process; only the code and the inputs go to the sandbox.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from numpy.typing import NDArray

from engine import members
from engine.arrays import UnreadableArray, from_npy, read_npy
from engine.checks import (
    CodeFacts,
    TestResult,
    Tolerance,
    check_members,
    check_test,
    diagnose,
    finite_difference_disagreement,
    keep_output,
    passed_as_expected,
    type_signature,
)
from engine.events import (
    BeforeTests,
    CompileError,
    LoadError,
    Malformed,
    MissingFunction,
    TestEvent,
    own_frames,
    parse_before_tests,
)
from engine.probes import evaluate_probes
from engine.signatures import ARRAY_STATUSES, signature, signature_of
from engine.spec import Case, ProblemSpec
from engine.verdicts import VERDICT_OF_STATUS, TestStatus, Verdict

if TYPE_CHECKING:
    from engine.testset import GeneratedCase  # which imports this module
from sandbox.backends.base import Job, JobTest, Sandbox, SandboxError
from sandbox.protocol import Outcome

NOT_RUN_AFTER_TIMEOUT = "not run: an earlier test ran out of time"


@dataclass
class GradeReport:
    verdict: str
    message: str = ""
    tests: list[TestResult] = field(default_factory=list)
    time_ms: float = 0.0
    sandbox: dict[str, Any] = field(default_factory=dict)
    line: int | None = None
    # Properties the output broke, from the problem's probes: {"name", "message", "explanation", "see"}.
    properties: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tests"] = [test.as_dict() for test in self.tests]
        return data

    def stored_tests(self) -> list[dict[str, Any]]:
        """The tests as the site stores them for the student: a hidden test keeps no time of its own, since
        the code could take a time proportional to a hidden value (the gate reads the times, not the site)."""
        return [test.as_dict() | ({"time_ms": 0.0} if test.hidden else {}) for test in self.tests]


def run_order(cases: list[Case]) -> list[Case]:
    """Visible tests first, then the small ones, probe inputs last: a slow or looping submission fails fast."""
    return sorted(cases, key=lambda case: (case.probe, case.hidden, case.input_bytes()))


def job_of(
    code: str,
    spec: ProblemSpec,
    cases: Sequence[Case | GeneratedCase],
    solved: dict[str, str] | None = None,
    hidden_from: int | None = None,
) -> Job:
    return Job(
        code=code,
        function=spec.function,
        params=spec.params,
        tests=[JobTest(case.name, case.inputs) for case in cases],
        time_limit_s=spec.time_limit_s,
        memory_mb=spec.memory_mb,
        output_bytes=spec.max_output_bytes,
        budget_s=spec.budget_s,
        modules=dict(solved or {}),
        returns=spec.returns.kind if spec.returns else None,
        hidden_from=hidden_from,
    )


def grade(
    code: str, spec: ProblemSpec, cases: list[Case], sandbox: Sandbox, solved: dict[str, str] | None = None
) -> GradeReport:
    """Run ``code`` against ``cases`` (and the probe inputs among them); SandboxError if the sandbox failed.

    ``solved`` (slug -> code, loaded in this order) is what ``from solved import <slug>`` gives the code:
    for a student, their own accepted solutions of the problems this one builds on.

    The visible tests run before the hidden ones: their feedback is shown in full (messages, printed
    output), so the process that produces it must never hold a hidden input.  One job runs both in one
    child (``hidden_from``): the zygote hands it the hidden inputs only once it has reported every
    example, and not at all when the examples ended early or at a timeout.  Each part has a budget of
    its own, so a submission costs at most two budgets.
    """
    ordered = run_order(cases)
    shown, unseen = [c for c in ordered if not c.hidden], [c for c in ordered if c.hidden]
    started = time.monotonic()
    run = sandbox.run(job_of(code, spec, shown + unseen, solved, len(shown) if shown and unseen else None))
    events, hidden_events = _split_at(run.events, len(shown)) if shown else ([], run.events)
    report = _interpret_both(events, hidden_events, spec, shown, unseen, CodeFacts.of(code))
    info, round_trip_ms = run.info, run.elapsed_ms
    report.time_ms = round((time.monotonic() - started) * 1000, 3)
    report.sandbox = {"backend": sandbox.name, "numpy": info.get("numpy", ""), "round_trip_ms": round(round_trip_ms, 3)}
    return report


HIDDEN_LOAD_FAILED = (
    "your module did not load for the hidden tests (it raised, or did not define the function); "
    "on hidden tests the error is not shown"
)


def _split_at(events: list[dict[str, Any]], examples: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A job's events as the examples' (up to their last test event) and the hidden tests' (the rest)."""
    seen = 0
    for position, event in enumerate(events):
        if seen == examples:
            return events[:position], events[position:]
        seen += event.get("event") == "test" if isinstance(event, dict) else 0
    return events, []


def _interpret_both(
    events: list[dict[str, Any]],
    hidden_events: list[dict[str, Any]],
    spec: ProblemSpec,
    shown: list[Case],
    unseen: list[Case],
    facts: CodeFacts | None = None,
) -> GradeReport:
    if not shown:
        report = interpret(hidden_events, spec, unseen, facts)
        if isinstance(parse_before_tests(hidden_events[0]) if hidden_events else None, LoadError | MissingFunction):
            report.message, report.line = HIDDEN_LOAD_FAILED, None  # the module ran beside the hidden inputs
        return report
    tests = [e for e in events if e.get("event") == "test"]
    early = parse_before_tests(hidden_events[0]) if hidden_events else None
    if early is not None:  # loaded for the examples, not for the hidden tests: depends on what it was given
        report = interpret(events, spec, shown, facts)
        report.tests += _not_run([c for c in unseen if not c.probe])
        if report.verdict == Verdict.ACCEPTED:
            report.verdict = Verdict.RUNTIME_ERROR
        report.message = HIDDEN_LOAD_FAILED
        return report
    head = [] if events and events[0].get("event") == "test" else events[:1]
    return interpret(head + tests + [e for e in hidden_events if e.get("event") == "test"], spec, shown + unseen, facts)


def interpret(
    events: list[dict[str, Any]],
    spec: ProblemSpec,
    cases: list[Case],
    facts: CodeFacts | None = None,
    signatures: bool = True,
) -> GradeReport:
    """The report for ``events``, which the sandbox sent for ``cases`` in this order; ``facts`` about the code
    (when it is known) keep advice from naming a cause the code has already dealt with. Without ``signatures``
    the failing tests carry none (the gate's reports: only a submission's are mined, and they cost a sixth of
    interpreting a run)."""
    graded = [case for case in cases if not case.probe]
    early = parse_before_tests(events[0]) if events else None
    if early is not None:
        return early_report(early, spec, graded)
    tests = [event for event in events if event.get("event") == "test"]
    if len(tests) > len(cases) or (len(tests) < len(cases) and not stopped_by_timeout(tests)):
        raise SandboxError(f"sandbox reported {len(tests)} results for {len(cases)} tests")
    checked = [_check(event, case, spec, facts, signatures) for event, case in zip(tests, cases) if not case.probe]
    results = name_consistent_misconceptions(checked)
    results += [
        TestResult(case.name, case.hidden, TestStatus.NOT_RUN, NOT_RUN_AFTER_TIMEOUT) for case in graded[len(results) :]
    ]
    report = GradeReport(verdict=overall_verdict(results), tests=results)
    if report.verdict != Verdict.ACCEPTED and spec.probes:
        outputs = {case.name: event for event, case in zip(tests, cases) if case.probe}
        report.properties = evaluate_probes(spec, [c for c in cases if c.probe], outputs)
    return report


def stopped_by_timeout(tests: list[dict[str, Any]]) -> bool:
    return bool(tests) and tests[-1].get("outcome") == Outcome.TIMEOUT


def overall_verdict(results: list[TestResult]) -> str:
    for result in results:
        if result.status != TestStatus.PASSED:
            return VERDICT_OF_STATUS[TestStatus(result.status)]
    return Verdict.ACCEPTED


def _check(
    raw: dict[str, Any], case: Case, spec: ProblemSpec, facts: CodeFacts | None = None, signatures: bool = True
) -> Checked:
    try:
        event = TestEvent.parse(raw)
    except Malformed as exc:
        return Checked(
            TestResult(
                case.name, case.hidden, TestStatus.RUNTIME_ERROR, f"the sandbox sent back a malformed result ({exc})"
            ),
            case,
        )
    if spec.returns is not None:
        return _check_members(event, case, spec, signatures)
    hashes = case.input_hashes
    tolerance = Tolerance(spec.rtol, spec.atol)
    result = None  # the expected output's own bytes back: passed, and neither array read
    if case.fd_expected is None:  # (a gradient's is read, for the finite differences)
        result = passed_as_expected(
            event,
            name=case.name,
            hidden=case.hidden,
            expected_npy=case.expected,
            input_hashes=hashes,
            max_output_bytes=spec.max_output_bytes,
        )
    expected = None
    if result is None:
        expected = from_npy(case.expected)
        result = check_test(
            event,
            name=case.name,
            hidden=case.hidden,
            expected=expected,
            input_hashes=hashes,
            tolerance=tolerance,
            max_output_bytes=spec.max_output_bytes,
            time_limit_s=spec.time_limit_s,
            budget_s=spec.budget_s,
            inputs=case.array_inputs(),
            facts=facts,
        )
    if spec.picture == "curve" and not case.hidden and result.status == TestStatus.PASSED:
        keep_output(result, event)  # the result page draws it beside the reference's
    if case.fd_expected is not None and spec.fd_rtol is not None and result.status in FD_CHECKED:
        estimate = from_npy(case.fd_expected)
        _check_finite_difference(result, event, estimate, spec, case.hidden)
    if signatures:
        result.signature = signature_of(event, result.status, expected, spec.rtol, spec.atol, spec.max_output_bytes)
    result.drawn = case.variant != 0
    matches = []
    if case.known_wrong and result.status != TestStatus.PASSED:
        matches = diagnose(event, result.status, case.known_wrong, tolerance, spec.max_output_bytes)
    return Checked(result, case, matches)


@dataclass
class Checked:
    """One test's result, with every known-wrong solution whose result on the same inputs it reproduces."""

    result: TestResult
    case: Case
    matches: list[Any] = field(default_factory=list)  # of KnownWrong, in the package's order


def name_consistent_misconceptions(checked: list[Checked]) -> list[TestResult]:
    """Each test's results, naming the first misconception it reproduces that no other test contradicts.

    A test can be degenerate for a mistake: with rows of width one, a softmax over any axis of the same
    length gives the same output, so a wrong axis "matches" a known-wrong solution that took another one.
    A misconception is therefore named only if the code reproduced that solution's result on every test
    where the solution's result is known and the code ran: where the solution failed, the code failed the same
    way; where it passed, the code passed.  One test that tells the two apart (the code passing where the
    solution failed, failing where it passed, or failing differently) and the name is not shown anywhere.
    """
    contradicted = set()
    for item in checked:
        if item.result.status == TestStatus.NOT_RUN:
            continue
        passed = item.result.status == TestStatus.PASSED
        matched = {known.name for known in item.matches}
        for known in item.case.known_wrong:
            if known.status == TestStatus.PASSED:
                if not passed:
                    contradicted.add(known.name)
            elif known.name not in matched:
                contradicted.add(known.name)
    for item in checked:
        named = next((known for known in item.matches if known.name not in contradicted), None)
        if named is not None:
            item.result.misconception = named.as_misconception()
    return [item.result for item in checked]


FD_CHECKED = (TestStatus.PASSED, TestStatus.WRONG_VALUE)


def _check_members(event: TestEvent, case: Case, spec: ProblemSpec, signatures: bool = True) -> Checked:
    """A test of a function with several outputs: each member checked, then the finite differences, the
    signature (every member's) and the misconception (every member must match) as for a single output."""
    expected = members.load(case.expected)
    assert isinstance(expected, dict) and spec.returns is not None  # several outputs: declared, and stored packed
    tolerance = Tolerance(spec.rtol, spec.atol)
    hashes = case.input_hashes
    result, parts = check_members(
        event,
        name=case.name,
        hidden=case.hidden,
        expected=expected,
        returns=spec.returns,
        input_hashes=hashes,
        tolerance=tolerance,
        max_output_bytes=spec.max_output_bytes,
        time_limit_s=spec.time_limit_s,
        budget_s=spec.budget_s,
        inputs=case.array_inputs(),
    )
    if case.fd_expected is not None and spec.fd_rtol is not None and result.status in FD_CHECKED and parts:
        estimates = members.load(case.fd_expected)
        for name, part in parts.items():
            if name in estimates:
                _check_finite_difference(result, part, estimates[name], spec, case.hidden, name)
    if signatures:
        result.signature = _members_signature(event, result.status, parts, expected, spec)
    result.drawn = case.variant != 0
    matches = []
    if case.known_wrong and result.status != TestStatus.PASSED:
        matches = diagnose(event, result.status, case.known_wrong, tolerance, spec.max_output_bytes, spec.returns)
    return Checked(result, case, matches)


def _members_signature(
    event: TestEvent, status: str, parts: dict[str, Any], expected: dict[str, Any], spec: ProblemSpec
) -> str:
    """Every member's signature in one, for a wrong array; else the status's, as for a single output."""
    if parts and status in ARRAY_STATUSES:
        each = (
            signature_of(part, TestStatus.WRONG_VALUE, expected[name], spec.rtol, spec.atol, spec.max_output_bytes)
            for name, part in parts.items()
        )
        return signature(status, detail=";".join(f"{name}:{one}" for name, one in zip(parts, each)))
    if status == TestStatus.WRONG_TYPE:
        return signature(status, detail=type_signature(event, spec.returns))
    return signature_of(event, status, next(iter(expected.values())), spec.rtol, spec.atol, spec.max_output_bytes)


def _check_finite_difference(
    result: TestResult, event: TestEvent, estimate: NDArray[Any], spec: ProblemSpec, hidden: bool, member: str = ""
) -> None:
    """A gradient is also checked against a finite-difference estimate of the forward, not only the reference."""
    try:
        actual = read_npy(event.output or b"", spec.max_output_bytes + 4096)
    except UnreadableArray:
        return
    assert spec.fd_rtol is not None  # the callers check it
    disagreement = finite_difference_disagreement(
        actual, estimate, Tolerance(spec.fd_rtol, spec.fd_atol or 0.0), hidden
    )
    if disagreement is None:
        return
    disagreement = f"{member}: {disagreement}" if member else disagreement
    if result.status == TestStatus.PASSED:
        result.status, result.message = TestStatus.WRONG_VALUE, disagreement
        result.checks = {**result.checks, "values": "failed", "inputs": "skipped"}
    else:
        result.message = f"{result.message}; {disagreement}"


def _not_run(cases: list[Case]) -> list[TestResult]:
    return [TestResult(case.name, case.hidden, TestStatus.NOT_RUN) for case in cases]


def early_report(early: BeforeTests, spec: ProblemSpec, cases: list[Case]) -> GradeReport:
    """The report of a run that ended before its tests: a syntax error, no such function, or a failing module."""
    if isinstance(early, CompileError):
        where = (
            f" on line {early.line}" + (f": {early.text.strip()}" if early.text.strip() else "") if early.line else ""
        )
        return GradeReport(Verdict.COMPILE_ERROR, f"{early.message}{where}", _not_run(cases), line=early.line)
    if isinstance(early, MissingFunction):
        also = f"; your code defines {early.found}" if early.found else ""
        return GradeReport(Verdict.COMPILE_ERROR, f"define a function named {spec.signature}{also}", _not_run(cases))
    if early.error is None:
        return GradeReport(Verdict.RUNTIME_ERROR, "your module failed while loading", _not_run(cases))
    error = early.error
    own = own_frames(error.frames)
    line = own[-1]["line"] if own else None
    whose = f"your accepted solution of {error.module}" if error.module else "your module"
    report = GradeReport(
        Verdict.RUNTIME_ERROR, f"{whose} raised {error.type} while loading: {error.message}", _not_run(cases), line=line
    )
    if error.type == "MemoryError":
        report.verdict = Verdict.MEMORY_LIMIT_EXCEEDED
    return report
