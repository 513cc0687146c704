"""Speed: how the CPU time of an accepted solution compares with the reference's, measured so it can be trusted.

At gate time (``build_benchmark``) the generator runs again with ``BENCH_DRAWS`` secret seeds and keeps the
problem's benchmark case from each draw (the manifest's ``[speed] cases``, else the largest hidden case);
the reference computes each draw's expected output in a sandbox of its own, as for every test.

After an accepted Submit (``measure_speed``), each repeat runs two children of the same sandbox, one after
the other: the reference's and the student's, each calling its function once on each draw (as many as fit
one job, in an order each repeat rotates), and every student result is checked against the draw's expected
output (one wrong result, no figure).  Within a child no input comes twice, and each child is a fresh
process whose files are removed after its job, so a result cached from one call is of no use to any other.
Many calls per child, not one: a fresh process's first call pays for its first allocations and
copy-on-write faults, many times a small function's own work and different in every child, and a single
call's figure was mostly that noise (``bench/speed_stability.py`` on a quiet machine: the same code's
percentile spread 43-57 points over four runs with one call per child, 6-27 over three with every draw in
each).  Nothing is timed by the code it
measures: each child is a fresh process that may start no process or thread, and the zygote reads its CPU
clock from outside (``sandbox/zygote/supervisor.py``, ``cpu_event``), from before the first line of the
student's code runs (work done at import time counts) to the moment the last result has been read.  A
child's figure is that CPU time per call; the best of the repeats of each side is the least disturbed.

The ratio is student / reference, both measured in the same sandbox minutes apart at most, so a machine
under load slows both.  Both figures include what the harness costs around a call (loading the inputs,
hashing them, encoding the result), the same for both: on a problem whose work is little more than
reading its inputs, the ratios sit closer to 1 than the work alone would put them.  It is shown rounded
to two significant figures: one number per submission, about inputs drawn with secret seeds that no test
uses.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.gate import GateOutcome
from engine.grading import _check, job_of
from engine.package import Package, PackageError
from engine.spec import Case, ProblemSpec
from engine.testset import generate_cases, reference_outputs
from engine.verdicts import TestStatus
from sandbox.backends.base import Sandbox, SandboxError
from sandbox.protocol import MAX_OUTPUT_BYTES, Outcome

REPEATS = 5
BENCH_DRAWS = 10  # secret seeds of the benchmark case (fewer when the case is large: BENCH_MAX_BYTES)
# Slow code gets fewer repeats: past this much of its CPU time (at least MIN_REPEATS), more would cost the
# worker seconds and change nothing a student can see (a loop at 50x is 50x whether or not it is 48x).
STUDENT_CPU_BUDGET_MS = 1500.0
MIN_REPEATS = 1
VECTORISED_WITHIN = 2.0  # the "vectorised" mark: at most this many times the reference's CPU time
FLOOR_MS = 0.001  # a reference faster than this per call (ms) is taken to be this fast
BENCH_MARK = "~bench"
# What a problem's draws may hold together (inputs and outputs): a larger case gets fewer draws.
BENCH_MAX_BYTES = 24 * 1024 * 1024


@dataclass(frozen=True)
class SpeedReport:
    """One speed measurement: ``ratio`` (None: not measured, ``message`` says why)."""

    ratio: float | None
    repeats: int = 0
    student_ms: float = 0.0
    reference_ms: float = 0.0
    message: str = ""

    @property
    def vectorised(self) -> bool:
        return self.ratio is not None and self.ratio <= VECTORISED_WITHIN

    def as_dict(self) -> dict:
        """What the site stores: the figure a student sees, and the means of checking it (staff only)."""
        return {"ratio": self.ratio, "vectorised": self.vectorised, "repeats": self.repeats,
                "student_ms": self.student_ms, "reference_ms": self.reference_ms, "message": self.message}


def benchmark_names(package: Package, base: list[Case]) -> list[str]:
    """The cases speed is measured on: the manifest's, or the largest hidden case."""
    if package.speed_cases:
        return list(package.speed_cases)
    hidden = [case for case in base if case.hidden and not case.probe and case.variant == 0]
    # Inputs and output together: a problem whose arguments are scalars (a mask's length) is as large as its output.
    return [max(hidden, key=lambda case: case.input_bytes() + len(case.expected)).name] if hidden else []


def build_benchmark(package: Package, sandbox: Sandbox, seeds: list[int], base: list[Case],
                    max_output_bytes: int = MAX_OUTPUT_BYTES) -> list[Case]:
    """Each benchmark case drawn with each of ``seeds`` (variant 1, 2, ...), with the reference's output;
    PackageError says why it cannot be (a case the manifest names that the generator does not yield)."""
    names = benchmark_names(package, base)
    # A large case gets fewer draws (at least one), which the repeats then share; its size is the published
    # case's, inputs and output.
    size = sum(case.input_bytes() + len(case.expected) for case in base if case.name in names and case.variant == 0)
    draws = []
    for variant, seed in enumerate(seeds[:max(1, BENCH_MAX_BYTES // max(size, 1))], start=1):
        generated = {case.name: case for case in generate_cases(dataclasses.replace(package, seed=seed), sandbox)}
        for name in names:
            if name not in generated:
                raise PackageError(f"{package.slug}/problem.toml: [speed] names the case {name!r}, which the "
                                   f"generator does not yield")
            draws.append((variant, generated[name]))
    if not draws:
        return []
    expected = []
    for batch in _batches([case for _, case in draws]):  # all together, a large case's draws would exceed a frame
        expected += reference_outputs(package, batch, sandbox, max_output_bytes)[0]
    return [Case(f"{case.name}{BENCH_MARK}{variant}", True, case.inputs, output, variant=variant)
            for (variant, case), output in zip(draws, expected)]


def _batches(cases: list, max_bytes: int = MAX_OUTPUT_BYTES) -> list[list]:
    """Consecutive runs of ``cases`` whose inputs stay under ``max_bytes`` together (a single case always fits)."""
    batches: list[list] = [[]]
    for case in cases:
        size = sum(len(v) for v in case.array_inputs().values())
        if batches[-1] and sum(len(v) for c in batches[-1] for v in c.array_inputs().values()) + size > max_bytes:
            batches.append([])
        batches[-1].append(case)
    return batches


def add_benchmark(outcome: GateOutcome, package: Package, sandbox: Sandbox, seeds: list[int],
                  max_output_bytes: int = MAX_OUTPUT_BYTES) -> str:
    """Draw a passed gate's benchmark with ``seeds`` (secret: the site's); what became of it, in words.
    Speed is feedback, not a condition of publishing: a benchmark that cannot be drawn leaves none."""
    try:
        outcome.benchmark = build_benchmark(package, sandbox, seeds, outcome.cases, max_output_bytes)
    except PackageError as exc:
        outcome.benchmark = []
        return f"no speed measurement: {exc}"
    return f"speed measured on {len(outcome.benchmark)} secret draws of {', '.join(benchmark_names(package, outcome.cases))}"


@dataclass(frozen=True)
class Timed:
    cpu_ms: float | None  # the child's CPU time for every call together
    events: list[dict]  # the test events, one per case


def time_calls(sandbox: Sandbox, code: str, spec: ProblemSpec, cases: list[Case],
               solved: dict[str, str] | None = None) -> Timed:
    """One call of ``code`` on each of ``cases``, all in one fresh child of ``sandbox``, with the CPU time
    the zygote read on the child's clock from before its first line of code ran to its last result (None
    when it could not).  Work done ahead (at import time, or on a later case's inputs) is inside that."""
    job = dataclasses.replace(job_of(code, dataclasses.replace(spec, budget_s=None), cases, solved), timed=True)
    events = sandbox.run(job).events
    tests = [e for e in events if e.get("event") == "test"]
    cpus = [e.get("cpu_ms") for e in events if e.get("event") == "cpu"]
    cpu = cpus[-1] if len(cpus) == len(cases) == len(tests) else None
    if cpu is not None and (type(cpu) not in (int, float) or not 0 <= cpu < 1e9):
        raise SandboxError(f"sandbox reported a CPU time of {str(cpu)[:40]}")
    return Timed(float(cpu) if cpu is not None else None, tests)


def measure_speed(code: str, reference: str, spec: ProblemSpec, draws: list[Case], sandbox: Sandbox,
                  solved: dict[str, str] | None = None, reference_solved: dict[str, str] | None = None,
                  repeats: int = REPEATS) -> SpeedReport:
    """The speed of ``code`` (accepted) against ``reference`` on ``draws`` (``build_benchmark``'s).

    Each repeat runs the reference's child and the student's, in an order that alternates, each on every
    draw that fits one job; a child's figure is its CPU time per call, and each side's best repeat counts."""
    if not draws:
        return SpeedReport(None, message="this problem has no benchmark case")
    pairs: list[tuple[float, float]] = []  # (student, reference) CPU time per call, one pair per repeat
    runs = [("reference", reference, reference_solved), ("student", code, solved)]
    for repeat in range(repeats):
        start = repeat % len(draws)
        cases = _batches(draws[start:] + draws[:start])[0]  # every draw a job holds, first ones rotating
        calls = len(cases)
        pair = {}
        for role, source, modules in runs if repeat % 2 == 0 else runs[::-1]:
            timed = time_calls(sandbox, source, spec, cases, modules)
            if role == "student" and not (len(timed.events) == len(cases)
                                          and all(_correct(e, c, spec) for e, c in zip(timed.events, cases))):
                return SpeedReport(None, repeat + 1, message="a benchmark input gave a result the checks refused "
                                                             "(or no result in time): no speed figure")
            if timed.cpu_ms is None:
                return SpeedReport(None, repeat + 1, message="the CPU time could not be read: no speed figure")
            pair[role] = timed.cpu_ms / calls
        pairs.append((pair["student"], pair["reference"]))
        if repeat + 1 >= MIN_REPEATS and sum(s for s, _ in pairs) * calls > STUDENT_CPU_BUDGET_MS:
            break
    return figure(pairs)


def figure(pairs: list[tuple[float, float]]) -> SpeedReport:
    """The best (least disturbed) repeat of each side, student / reference: a burst of load only ever adds
    CPU time (caches flushed, pages faulted), so the minimum is the figure closest to the code's own cost."""
    student_ms, reference_ms = min(s for s, _ in pairs), min(r for _, r in pairs)
    return SpeedReport(round_figure(student_ms / max(reference_ms, FLOOR_MS)), len(pairs), round(student_ms, 3),
                       round(reference_ms, 3))


# Two ratios closer than this factor are a tie: repeated measurements of the same code on a loaded machine
# spread about this much (bench/speed_stability.py), so the judge cannot tell them apart.
TIE_WITHIN = 1.15


def percentile(ratio: float, others: list[float]) -> int | None:
    """The share (%) of ``others`` this ratio is faster than, a tie (within ``TIE_WITHIN``) counting half;
    None when there are no others."""
    if not others:
        return None
    slower = sum(1.0 if r > ratio * TIE_WITHIN else 0.5 if r * TIE_WITHIN >= ratio else 0.0 for r in others)
    return round(100 * slower / len(others))


def round_figure(ratio: float) -> float:
    return float(f"{ratio:.2g}")


def _correct(raw: dict, case: Case, spec: ProblemSpec) -> bool:
    """The student's result on a benchmark draw passes the same checks as a test's."""
    if raw.get("outcome") != Outcome.RETURNED or raw.get("name") != case.name:
        return False
    return _check(raw, case, spec).result.status == TestStatus.PASSED  # grading's own checks, as on a test
