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
child's figure is that CPU time per call.

Each repeat runs the two children one right after the other in the same sandbox, so both sides are sampled
over the same moments and load; the figure is the ratio of each side's lowest CPU time over the repeats after
the first (``figure``, ``counted``), which reads the children a burst of contention missed.  The first repeat
checks the student's results, returned whole; its children are not timed like the later ones (``counted``).
Both figures include what the harness costs around a call (loading the inputs, hashing them, encoding the
result), the same for both: on a problem whose work is little more than reading its inputs, the ratios sit
closer to 1 than the work alone would put them.  It is shown rounded
to two significant figures: one number per submission, about inputs drawn with secret seeds that no test
uses.  Percentiles and rankings compare the ratio to four figures (``precise``), which nobody is shown:
rounded, 1.04 and 1.06 would be 1.0 and 1.1, a step as large as the noise.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import math
import secrets
import statistics
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from engine.gate import GateOutcome
from engine.grading import _check, job_of
from engine.package import Package, PackageError
from engine.spec import Case, ProblemSpec
from engine.testset import generate_cases, reference_outputs
from engine.verdicts import TestStatus
from sandbox.backends.base import Sandbox, SandboxError
from sandbox.protocol import MAX_OUTPUT_BYTES, Outcome

# Repeats (pairs of children) per measurement, the first of them the check (``counted``): the figure is each
# side's lowest CPU time over the others.  Measured in the Docker sandbox (``bench/speed_noise.py``, the subject
# measured 16-24 times over, load 0.8-1.7): the first repeat's student child returns whole results and both its
# children read their inputs from the job, where every later child reads them staged and returns digests, so
# it ran 20-25% faster (3.6 against 4.5 ms a call), and each side's minimum over every repeat moved 0.063-0.083
# (log sd) between measurements: it was that child's figure when it was the student's lowest, not otherwise.
# Without it, the minimum over the next 4 repeats moved 0.012-0.013 in one run and 0.043-0.058 in three later
# ones (the machine busier: every estimator moved more), each time the least or about the least of the estimators
# tried (``figure``).  Through the worker (bench/speed_cost.py, seven runs) the same solution's figures moved
# 0.017-0.055 (main, every repeat counted, at most 6: 0.048-0.092).
REPEATS = 5
TRIM_FROM = 5  # from this many repeats on, the highest and lowest ratios are left out
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
    precise: float | None = None  # the ratio to four figures: what percentiles and rankings compare (never shown)

    @property
    def vectorised(self) -> bool:
        return self.ratio is not None and self.ratio <= VECTORISED_WITHIN

    def as_dict(self) -> dict[str, Any]:
        """What the site stores: the figure a student sees, and the means of checking it (staff only)."""
        return {
            "ratio": self.ratio,
            "vectorised": self.vectorised,
            "repeats": self.repeats,
            "student_ms": self.student_ms,
            "reference_ms": self.reference_ms,
            "message": self.message,
            "ratio_precise": self.precise,
        }


def benchmark_names(package: Package, base: list[Case]) -> list[str]:
    """The cases speed is measured on: the manifest's, or the largest hidden case."""
    if package.speed_cases:
        return list(package.speed_cases)
    hidden = [case for case in base if case.hidden and not case.probe and case.variant == 0]
    # Inputs and output together: a problem whose arguments are scalars (a mask's length) is as large as its output.
    return [max(hidden, key=lambda case: case.input_bytes() + len(case.expected)).name] if hidden else []


def build_benchmark(
    package: Package, sandbox: Sandbox, seeds: list[int], base: list[Case], max_output_bytes: int = MAX_OUTPUT_BYTES
) -> list[Case]:
    """Each benchmark case drawn with each of ``seeds`` (variant 1, 2, ...), with the reference's output;
    PackageError says why it cannot be (a case the manifest names that the generator does not yield)."""
    names = benchmark_names(package, base)
    # A large case gets fewer draws (at least one), which the repeats then share; its size is the published
    # case's, inputs and output.
    size = sum(case.input_bytes() + len(case.expected) for case in base if case.name in names and case.variant == 0)
    draws = []
    for variant, seed in enumerate(seeds[: max(1, BENCH_MAX_BYTES // max(size, 1))], start=1):
        generated = {case.name: case for case in generate_cases(dataclasses.replace(package, seed=seed), sandbox)}
        for name in names:
            if name not in generated:
                raise PackageError(
                    f"{package.slug}/problem.toml: [speed] names the case {name!r}, which the generator does not yield"
                )
            draws.append((variant, generated[name]))
    if not draws:
        return []
    expected = []
    for batch in _batches([case for _, case in draws]):  # all together, a large case's draws would exceed a frame
        expected += reference_outputs(package, batch, sandbox, max_output_bytes)[0]
    return [
        Case(f"{case.name}{BENCH_MARK}{variant}", True, case.inputs, output, variant=variant)
        for (variant, case), output in zip(draws, expected)
    ]


def _batches(cases: list[Any], max_bytes: int = MAX_OUTPUT_BYTES) -> list[list[Any]]:
    """Consecutive runs of ``cases`` whose inputs stay under ``max_bytes`` together (a single case always fits)."""
    batches: list[list[Any]] = [[]]
    for case in cases:
        size = sum(len(v) for v in case.array_inputs().values())
        if batches[-1] and sum(len(v) for c in batches[-1] for v in c.array_inputs().values()) + size > max_bytes:
            batches.append([])
        batches[-1].append(case)
    return batches


def add_benchmark(
    outcome: GateOutcome, package: Package, sandbox: Sandbox, seeds: list[int], max_output_bytes: int = MAX_OUTPUT_BYTES
) -> str:
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
    events: list[dict[str, Any]]  # the test events, one per case


def time_calls(
    sandbox: Sandbox,
    code: str,
    spec: ProblemSpec,
    cases: list[Case],
    solved: dict[str, str] | None = None,
    digest: bool = False,
    stage: str | None = None,
) -> Timed:
    """One call of ``code`` on each of ``cases``, all in one fresh child of ``sandbox``, with the CPU time
    the zygote read on the child's clock from before its first line of code ran to its last result (None
    when it could not).  Work done ahead (at import time, or on a later case's inputs) is inside that.
    ``digest``: each result comes as the sha256 of its ``.npy`` (``output_sha256``), not the ``.npy``.
    ``stage``: a key of this measurement's (``measure_speed``): the sandbox keeps these inputs once sent and
    later jobs with the same key send only the cases' names (``Job.stage``)."""
    job = job_of(code, dataclasses.replace(spec, budget_s=None), cases, solved)
    if stage is not None:
        stage = f"{stage}:{hashlib.sha256(' '.join(sorted(c.name for c in cases)).encode()).hexdigest()[:16]}"
    job = dataclasses.replace(job, timed=True, digest=digest, stage=stage)
    events = sandbox.run(job).events
    tests = [e for e in events if e.get("event") == "test"]
    cpus = [e.get("cpu_ms") for e in events if e.get("event") == "cpu"]
    cpu = cpus[-1] if len(cpus) == len(cases) == len(tests) else None
    if cpu is not None and (type(cpu) not in (int, float) or not 0 <= cpu < 1e9):
        raise SandboxError(f"sandbox reported a CPU time of {str(cpu)[:40]}")
    return Timed(float(cpu) if cpu is not None else None, tests)


def measure_speed(
    code: str,
    reference: str,
    spec: ProblemSpec,
    draws: list[Case],
    sandbox: Sandbox,
    solved: dict[str, str] | None = None,
    reference_solved: dict[str, str] | None = None,
    repeats: int = REPEATS,
    others: list[float] | None = None,
) -> SpeedReport:
    """The speed of ``code`` (accepted) against ``reference`` on ``draws`` (``build_benchmark``'s).

    Each repeat runs the reference's child and the student's, in an order that alternates, each on every
    draw that fits one job; a child's figure is its CPU time per call, and the repeats' ratios make the
    figure (``figure``).  ``others``: the other students' figures (precise ratios) it will be ranked among;
    timing then also stops once more repeats could not change what the student is shown (``standing_settled``)."""
    if not draws:
        return SpeedReport(None, message="this problem has no benchmark case")
    pairs: list[tuple[float, float]] = []  # (student, reference) CPU time per call, one pair per repeat
    passed: dict[str, dict[str, Any]] = {}  # draw name -> the student's first result on it that passed the checks
    stage = secrets.token_hex(8)  # the sandbox keeps the draws sent once for this measurement's later children
    digests = True  # until a result differs from the one that passed on its draw: then whole results again
    while len(pairs) < repeats:
        repeat = len(pairs)
        start = repeat % len(draws)
        cases = _batches(draws[start:] + draws[:start])[0]  # every draw a job holds, first ones rotating
        # Results the checks have passed on every draw of this repeat come back as digests, for both children
        # alike (the harness's work counts in both figures): moving a result cost more than computing it.
        digest = digests and all(case.name in passed for case in cases)
        timed = _time_pair(
            sandbox, (reference, reference_solved), (code, solved), spec, cases, digest, repeat, passed, stage
        )
        if timed is None and digest:
            digests = False  # a result that differs in a bit is checked whole, and this repeat timed again
            continue
        if isinstance(timed, str) or timed is None:
            message = timed or (
                "a benchmark input gave a result the checks refused (or no result in time): no speed figure"
            )
            return SpeedReport(None, repeat + 1, message=message)
        pairs.append(timed)
        if repeat + 1 >= MIN_REPEATS and sum(s for s, _ in pairs) * len(cases) > STUDENT_CPU_BUDGET_MS:
            break
        if standing_settled(counted(pairs), others):
            break
    return figure(pairs)


def _time_pair(
    sandbox: Sandbox,
    reference: tuple[str, dict[str, str] | None],
    student: tuple[str, dict[str, str] | None],
    spec: ProblemSpec,
    cases: list[Case],
    digest: bool,
    repeat: int,
    passed: dict[str, dict[str, Any]],
    stage: str | None = None,
) -> tuple[float, float] | str | None:
    """One repeat: the reference's child and the student's (in an order that alternates), each on ``cases``;
    their CPU times per call (student, reference), or None when a student's result was refused, or why the
    CPU time could not be read."""
    pair = {}
    runs = [("reference", *reference), ("student", *student)]
    for role, source, modules in runs if repeat % 2 == 0 else runs[::-1]:
        # The reference's results are never read: digests from its first child on, which spares moving 12 MB
        # of them for layer_norm; whole results cost the child about what hashing them does (its timed CPU 33-36
        # ms either way, docs/contributors/benchmarks.md), so the student's first, checked child stays comparable.
        timed = time_calls(sandbox, source, spec, cases, modules, digest or role == "reference", stage)
        if role == "student" and not (
            len(timed.events) == len(cases) and all(_correct(e, c, spec, passed) for e, c in zip(timed.events, cases))
        ):
            return None
        if timed.cpu_ms is None:
            return "the CPU time could not be read: no speed figure"
        pair[role] = timed.cpu_ms / len(cases)
    return pair["student"], pair["reference"]


# Timing stops before ``REPEATS``, from ``STANDING_FROM`` counted repeats on (``counted``: the check left out),
# once what a student is shown is settled: the figure's 95% interval is within ``SHOWN_ERROR`` either way (taken from the repeats' paired log ratios, trimmed, with
# Student's t: wider than the quartile figure's own, so it errs on the side of timing more), lies on one
# side of the vectorised mark, and puts the percentile among the other students' figures within
# ``STANDING_POINTS`` from one end to the other.  A figure far from every other one (a loop among vectorised
# solutions) is settled after four or five repeats; one among close neighbours is timed to ``REPEATS``.
STANDING_FROM = 3
SHOWN_ERROR = 0.1
STANDING_POINTS = 4
T_975 = (12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179)  # by degrees of freedom


def standing_settled(pairs: list[tuple[float, float]], others: list[float] | None) -> bool:
    """Whether more repeats could still change the figure's rounding step, its vectorised mark or its percentile
    among ``others`` (None or empty: nobody to rank it among, so this never stops it; ``settled`` may)."""
    if not others or len(pairs) < STANDING_FROM:
        return False
    logs = sorted(math.log(max(s, FLOOR_MS) / max(r, FLOOR_MS)) for s, r in pairs)
    if len(logs) >= TRIM_FROM:
        logs = logs[1:-1]
    t = T_975[min(len(logs) - 2, len(T_975) - 1)]
    error = t * statistics.stdev(logs) / math.sqrt(len(logs))
    if error > SHOWN_ERROR:
        return False
    low, high = math.exp(statistics.fmean(logs) - error), math.exp(statistics.fmean(logs) + error)
    if (low <= VECTORISED_WITHIN) != (high <= VECTORISED_WITHIN):
        return False
    faster, slower = percentile(low, others), percentile(high, others)
    return faster is not None and slower is not None and faster - slower <= STANDING_POINTS


def code_key(code: str, reference: str, solved: dict[str, str] | None = None) -> str:
    """What makes two measurements the same one: the code as Python reads it (comments, blank lines, layout
    and docstrings left out), the solved modules it imports, and the reference it is timed against.  Two
    Submits with the same key would time the same instructions on the same draws, so the second one reuses
    the first one's figure: submitting the same code again costs nothing and cannot move the figure."""
    digest = hashlib.sha256()
    for part in (code, reference, *(f"{slug}\0{source}" for slug, source in (solved or {}).items())):
        digest.update(_normalised(part).encode())
        digest.update(b"\0\0")
    return digest.hexdigest()


def _normalised(source: str) -> str:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source  # compared as written
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False)


def counted(pairs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The repeats a figure is made of: every one but the first (the check), unless the first is all there is.

    The first repeat's children are not timed like the others': the student's returns every result whole, for
    the checks (the later ones return digests of results that passed), and both read their inputs from the job
    (the later ones map what the sandbox kept of them, ``time_calls``'s ``stage``).  Hashing the results costs
    the student's later children about 0.9 ms a call on layer_norm, so its first child ran about 20% faster than
    any later one, and a figure that counted it was the ratio of a cheaper child to the reference's whenever that
    child came lowest.  Slow code stopped after its first repeat (``STUDENT_CPU_BUDGET_MS``) keeps that one."""
    return pairs[1:] or pairs


def figure(pairs: list[tuple[float, float]]) -> SpeedReport:
    """The ratio of each side's lowest (``QUANTILE``) per-call CPU time over the counted repeats (``counted``),
    student / reference; ``repeats`` says how many were timed, the check included.

    The reference's child and the student's alternate, one right after the other, so both sides are sampled
    over the same moments and the same load.  What another program does to a child's CPU time only adds to
    it: a burst of contention (caches and memory bandwidth taken, the child preempted mid-call) inflated a
    child's CPU time up to 3x on a shared two-core machine, in either side's child alone, in a third of the
    repeats at a load of 5-10.  A low quantile of each side reads the children those bursts missed.  Since the
    clock's start is read while the child waits (``supervisor.supervise``), nothing takes a child's CPU time
    below its work.  Measured again and again in the Docker sandbox (``bench/speed_noise.py``, 16-24
    measurements a run, load 0.8-1.7), the minimum over the counted repeats moved 0.009-0.013 (log sd) between
    measurements in one run of 8 repeats and 0.043-0.058 in three of 5; in the same runs each side's lower quartile
    0.012-0.025 and 0.045-0.062, the median of the paired ratios 0.014-0.024 and 0.054-0.074.  The per-call times shown to staff are those minima."""
    timed = counted(pairs)
    student_ms = _quantile([s for s, _ in timed], QUANTILE)
    reference_ms = _quantile([r for _, r in timed], QUANTILE)
    ratio = max(student_ms, FLOOR_MS) / max(reference_ms, FLOOR_MS)
    return SpeedReport(
        round_figure(ratio), len(pairs), round(student_ms, 3), round(reference_ms, 3), precise=float(f"{ratio:.4g}")
    )


QUANTILE = 0.0  # the minimum (``figure``)


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values``, interpolated between the two nearest (one value: itself)."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    below = math.floor(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


# How far apart two figures of the same code land: about 5% either way on a loaded machine
# (bench/speed_stability.py), so the difference of two figures has a spread of about this much (natural log).
# Through the worker (bench/speed_cost.py, seven runs, load 0.6-3.0), one solution's 10 fresh figures had a log sd
# of 0.017-0.055 (median 0.032) once the check repeat was left out, so the difference of two figures about 0.045
# (0.024-0.078): this is at the top of that range.  The same runs' percentiles with 0.07 or 0.05 here spread
# within a point of these (docs/contributors/benchmarks.md), so it is kept.
SPREAD = 0.1


def percentile(ratio: float, others: list[float]) -> int | None:
    """The share (%) of ``others`` this ratio is faster than, each counted by the chance that it really is
    slower, given how much two measurements of the same code differ (``SPREAD``): a figure 10% slower counts
    0.83, an equal one half, one twice as slow 1.  None when there are no others.

    A hard tie (within 15%: half, beyond: all or nothing) made the percentile jump by a whole student whenever
    a figure's noise carried another across the edge; counted this way it moves a little for a little noise."""
    if not others:
        return None
    chance = NormalDist(0.0, SPREAD).cdf
    faster = sum(chance(math.log(max(other, FLOOR_MS) / max(ratio, FLOOR_MS))) for other in others)
    return round(100 * faster / len(others))


def round_figure(ratio: float) -> float:
    return float(f"{ratio:.2g}")


def _correct(
    raw: dict[str, Any], case: Case, spec: ProblemSpec, passed: dict[str, dict[str, Any]] | None = None
) -> bool:
    """The student's result on a benchmark draw passes the same checks as a test's; a result identical, byte
    for byte, to one that passed them on the same draw (``passed``: name -> result) passes without them."""
    if raw.get("outcome") != Outcome.RETURNED or raw.get("name") != case.name:
        return False
    if passed is not None and case.name in passed:
        earlier = passed[case.name]
        if _result_of(earlier) == _result_of(raw) or _result_of(_digested(earlier)) == _result_of(raw):
            return True
    if _digests(raw):
        return False  # a digest stands for a result only once that result has passed the checks
    if _check(raw, case, spec).result.status != TestStatus.PASSED:  # grading's own checks, as on a test
        return False
    if passed is not None:
        passed[case.name] = raw
    return True


def _result_of(raw: dict[str, Any]) -> tuple[Any, ...]:
    """What the checks read of a result (its printed output and time left out)."""
    return tuple(
        raw.get(key)
        for key in (
            "outcome",
            "dtype",
            "shape",
            "output",
            "output_sha256",
            "container",
            "members",
            "truncated",
            "input_hashes",
        )
    )


def _digests(raw: dict[str, Any]) -> bool:
    members = raw.get("members")
    return "output_sha256" in raw or (
        isinstance(members, list) and any(isinstance(m, dict) and "output_sha256" in m for m in members)
    )


def _digested(raw: dict[str, Any]) -> dict[str, Any]:
    """A result that passed the checks as the sandbox reports it in a ``digest`` job (``output_sha256``, the
    sha256 of each ``.npy``, in place of the ``.npy``); kept with it, so that it is hashed once."""
    if "~digested" not in raw:
        raw["~digested"] = _digest_outputs(raw) | {
            "members": [_digest_outputs(m) for m in raw["members"]] if raw.get("members") else raw.get("members")
        }
    digested: dict[str, Any] = raw["~digested"]
    return digested


def _digest_outputs(part: dict[str, Any]) -> dict[str, Any]:
    output = part.get("output")
    if not isinstance(output, bytes):
        return dict(part)
    return {k: v for k, v in part.items() if k != "output"} | {"output_sha256": hashlib.sha256(output).hexdigest()}
