"""Grade one submission: run it in a sandbox, then check every result here.

This is plain Python (no Django models), called by the Celery task, by
``manage.py grade`` and by tests alike.  Expected outputs stay in this process;
only the code and the inputs go to the sandbox.
"""

from __future__ import annotations

import io
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from judge.grading.arrays import npy_hash
from judge.grading.checks import KnownWrong, TestResult, Tolerance, check_test, diagnose
from judge.grading.events import Malformed, TestEvent
from judge.grading.verdicts import VERDICT_OF_STATUS, TestStatus, Verdict
from sandbox.backends.base import Job, JobTest, Sandbox, SandboxError


@dataclass(frozen=True)
class ProblemSpec:
    function: str
    params: list[str]
    time_limit_s: float
    memory_mb: int
    rtol: float
    atol: float
    max_output_bytes: int = 16 * 1024 * 1024

    @property
    def signature(self) -> str:
        return f"{self.function}({', '.join(self.params)})"


@dataclass(frozen=True)
class Case:
    name: str
    hidden: bool
    inputs: dict[str, bytes]  # parameter -> .npy bytes
    expected: bytes  # .npy bytes; never leaves this process
    known_wrong: tuple[KnownWrong, ...] = ()  # what each known-wrong solution did on this test


@dataclass
class GradeReport:
    verdict: str
    message: str = ""
    tests: list[TestResult] = field(default_factory=list)
    time_ms: float = 0.0
    sandbox: dict = field(default_factory=dict)
    line: int | None = None

    def as_dict(self) -> dict:
        data = asdict(self)
        data["tests"] = [test.as_dict() for test in self.tests]
        return data


def grade(code: str, spec: ProblemSpec, cases: list[Case], sandbox: Sandbox) -> GradeReport:
    """Run ``code`` against ``cases``; raises SandboxError if the sandbox itself failed."""
    job = Job(
        code=code,
        function=spec.function,
        params=spec.params,
        tests=[JobTest(case.name, case.inputs) for case in cases],
        time_limit_s=spec.time_limit_s,
        memory_mb=spec.memory_mb,
        output_bytes=spec.max_output_bytes,
    )
    started = time.monotonic()
    run = sandbox.run(job)
    report = interpret(run.events, spec, cases)
    report.time_ms = round((time.monotonic() - started) * 1000, 3)
    report.sandbox = {"backend": sandbox.name, "numpy": run.info.get("numpy", ""), "round_trip_ms": round(run.elapsed_ms, 3)}
    return report


def interpret(events: list[dict], spec: ProblemSpec, cases: list[Case]) -> GradeReport:
    if events and events[0].get("event") in ("compile_error", "missing_function", "load_error"):
        return _before_tests(events[0], spec, cases)
    tests = [event for event in events if event.get("event") == "test"]
    if len(tests) != len(cases):
        raise SandboxError(f"sandbox reported {len(tests)} results for {len(cases)} tests")
    results = [_check(event, case, spec) for event, case in zip(tests, cases)]
    return GradeReport(verdict=overall_verdict(results), tests=results)


def overall_verdict(results: list[TestResult]) -> str:
    for result in results:
        if result.status != TestStatus.PASSED:
            return VERDICT_OF_STATUS[TestStatus(result.status)]
    return Verdict.ACCEPTED


def _check(raw: dict, case: Case, spec: ProblemSpec) -> TestResult:
    try:
        event = TestEvent.parse(raw)
    except Malformed as exc:
        return TestResult(case.name, case.hidden, TestStatus.RUNTIME_ERROR,
                          f"the sandbox sent back a malformed result ({exc})")
    expected = np.load(io.BytesIO(case.expected), allow_pickle=False)
    hashes = {name: npy_hash(data) for name, data in case.inputs.items()}
    tolerance = Tolerance(spec.rtol, spec.atol)
    result = check_test(event, name=case.name, hidden=case.hidden, expected=expected, input_hashes=hashes,
                        tolerance=tolerance, max_output_bytes=spec.max_output_bytes)
    if case.known_wrong and result.status != TestStatus.PASSED:
        match = diagnose(event, result.status, case.known_wrong, tolerance, spec.max_output_bytes)
        if match is not None:
            result.misconception = match.as_misconception()
    return result


def _not_run(cases: list[Case]) -> list[TestResult]:
    return [TestResult(case.name, case.hidden, TestStatus.NOT_RUN) for case in cases]


def _before_tests(event: dict, spec: ProblemSpec, cases: list[Case]) -> GradeReport:
    kind = event.get("event")
    if kind == "compile_error":
        line = event.get("line") if isinstance(event.get("line"), int) else None
        message = str(event.get("message", "SyntaxError"))[:500]
        text = str(event.get("text") or "").strip()[:200]
        where = f" on line {line}" + (f": {text}" if text else "") if line else ""
        return GradeReport(Verdict.COMPILE_ERROR, f"{message}{where}", _not_run(cases), line=line)
    if kind == "missing_function":
        found = event.get("found")
        also = f"; your code defines {str(found)[:200]}" if isinstance(found, str) and found else ""
        return GradeReport(Verdict.COMPILE_ERROR, f"define a function named {spec.signature}{also}", _not_run(cases))
    try:
        error = TestEvent.parse({"outcome": "error", "error": event.get("error")}).error
    except Malformed:
        return GradeReport(Verdict.RUNTIME_ERROR, "your module failed while loading", _not_run(cases))
    line = error.frames[-1]["line"] if error.frames else None
    report = GradeReport(Verdict.RUNTIME_ERROR,
                         f"your module raised {error.type} while loading: {error.message}", _not_run(cases), line=line)
    if error.type == "MemoryError":
        report.verdict = Verdict.MEMORY_LIMIT_EXCEEDED
    return report
