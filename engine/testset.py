"""Building a package's test set: generated inputs and the reference's outputs, in a sandbox.

Author code (the generator, the reference and the known-wrong solutions) runs
in a sandbox like student code, never in this process; what comes back is
parsed as hostile data (``engine/events.py``) and validated against the
package's declared parameters here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.arrays import UnreadableArray, npy_hash, read_npy, to_npy
from engine.events import Malformed, TestEvent, parse_before_tests, parse_case, parse_generate_end
from engine.grading import early_report, job_of, stopped_by_timeout
from engine.members import Mismatch, Returns, pack, split
from engine.package import MIN_DRAWS, Package, PackageError
from engine.spec import FLOAT64, BadArgument, Case, ParamKind, ProblemSpec, Value, array_inputs, check_scalar
from sandbox.backends.base import GenerateJob, Sandbox, SandboxError
from sandbox.protocol import MAX_OUTPUT_BYTES, Outcome

MAX_CASE_ELEMENTS = 2_000_000
ARRAY_KINDS = (ParamKind.ARRAY, ParamKind.OPTIONAL_ARRAY, ParamKind.INT_ARRAY, ParamKind.INT8_ARRAY)
INT64 = np.dtype("<i8")
# The integer kinds' exact dtypes: a generator must give exactly these.
INTEGER_KINDS: dict[ParamKind, np.dtype[Any]] = {ParamKind.INT_ARRAY: INT64, ParamKind.INT8_ARRAY: np.dtype("i1")}
# An array argument's size is bounded in bytes: MAX_CASE_ELEMENTS float64 values, or eight times as many int8
# ones (a quantised weight whose float copy would not fit in a test's memory limit).
MAX_CASE_BYTES = MAX_CASE_ELEMENTS * 8


class ReferenceFailed(PackageError):
    """The reference solution did not produce a usable expected output."""

    def __init__(self, message: str, check: str = "reference") -> None:
        super().__init__(message)
        self.check = check


@dataclass(frozen=True)
class GeneratedCase:
    name: str
    hidden: bool
    inputs: dict[str, Value]  # parameter -> .npy bytes, or a scalar's plain value
    shape: tuple[int, ...] | None = None  # the expected output's shape, when the generator declares it
    probe: bool = False
    fd: bool = False  # also checked against the finite-difference estimate

    def array_inputs(self) -> dict[str, bytes]:
        return array_inputs(self.inputs)


def generate_cases(package: Package, sandbox: Sandbox, max_bytes: int = MAX_OUTPUT_BYTES) -> list[GeneratedCase]:
    """Run the generator (``generator.py``) in the sandbox and validate every case it reports."""
    job = GenerateJob(code=package.generator, seed=package.seed, params=package.problem.params, output_bytes=max_bytes)
    return parse_generated(sandbox.run(job).events, package, max_bytes)


def parse_generated(events: list[dict[str, Any]], package: Package, max_bytes: int) -> list[GeneratedCase]:
    where = f"{package.slug}/{package.generator_file}"
    failure = parse_generate_end(events[-1] if events else {})
    if failure is not None:
        raise PackageError(f"{where}: {failure}")
    cases, names = [], set()
    for index, event in enumerate(events[:-1]):
        cases.append(_validate_case(event, index, package.problem, where, max_bytes))
        if cases[-1].name in names:
            raise PackageError(f"{where}: case {index}: duplicate name {cases[-1].name!r}")
        names.add(cases[-1].name)
    graded = [case for case in cases if not case.probe]
    if not graded:
        raise PackageError(f"{where}: generate() yielded no cases")
    if all(case.hidden for case in graded):
        raise PackageError(f"{where}: at least one case must be visible (hidden = False)")
    if package.finite_difference and not any(case.fd for case in graded):
        raise PackageError(f'{where}: finite_difference.py needs cases marked "fd": True to check against')
    probe_cases = [case.name for case in cases if case.probe]
    for probe in package.problem.probes:
        if probe.check == "distribution":
            draws = len(probe.reads(probe_cases))
            if draws < MIN_DRAWS:
                raise PackageError(
                    f"{where}: the probe {probe.name!r} reads {draws} probe cases named "
                    f"{probe.cases[0]!r}; a distribution needs at least {MIN_DRAWS} draws"
                )
            continue
        missing = [name for name in probe.cases if name not in probe_cases]
        if missing:
            raise PackageError(f"{where}: the probe {probe.name!r} names cases it did not yield as probes: {missing}")
    return graded + [case for case in cases if case.probe]


def _validate_case(event: dict[str, Any], index: int, spec: ProblemSpec, where: str, max_bytes: int) -> GeneratedCase:
    try:
        raw = parse_case(event)
    except Malformed as exc:
        raise PackageError(f"{where}: case {index} {exc}") from None
    label = f"{where}: case {index} ({raw.name})"
    unknown = set(raw.args) - set(spec.params)
    if unknown:
        raise PackageError(f"{label}: unknown argument(s) {sorted(unknown)}; the parameters are {spec.params}")
    inputs: dict[str, Value] = {}
    for param in spec.params:
        kind = spec.kind(param)
        if param not in raw.args:
            if kind != ParamKind.OPTIONAL_ARRAY:
                raise PackageError(f"{label}: argument {param!r} is missing (only optional arrays may be left out)")
            continue
        if kind == ParamKind.PARAMS:
            inputs[param] = check_params(raw.args[param], spec.keys[param], f"{label}: argument {param!r}", max_bytes)
        else:
            inputs[param] = _argument(raw.args[param], kind, f"{label}: argument {param!r}", max_bytes)
    return GeneratedCase(raw.name, raw.hidden or raw.probe, inputs, raw.shape, raw.probe, raw.fd)


def _argument(value: object, kind: str, label: str, max_bytes: int) -> Value:
    if kind not in ARRAY_KINDS:
        try:
            return check_scalar(kind, value)
        except BadArgument as exc:
            raise PackageError(f"{label} {exc}") from None
    try:
        array = read_npy(value if isinstance(value, bytes) else b"", max_bytes + 4096)
    except UnreadableArray as exc:
        raise PackageError(f"{label} is not an array: {exc}") from None
    if array.dtype.kind not in "biuf" or (array.size > MAX_CASE_ELEMENTS and array.nbytes > MAX_CASE_BYTES):
        raise PackageError(
            f"{label} must be a numeric ndarray of at most {MAX_CASE_ELEMENTS:,} elements "
            f"({MAX_CASE_BYTES // 2**20} MiB for a smaller dtype)"
        )
    wanted = INTEGER_KINDS.get(ParamKind(kind))
    if wanted is not None and array.dtype != wanted:
        raise PackageError(f"{label} is of kind {kind}: it must be an {wanted.name} ndarray, got {array.dtype}")
    return to_npy(np.ascontiguousarray(array))


def check_params(value: object, keys: dict[str, int], label: str, max_bytes: int) -> dict[str, bytes]:
    """A ``params`` argument: exactly the declared keys, each a finite float64 array of its declared number of
    axes, at most MAX_CASE_ELEMENTS elements together; PackageError says which key breaks which rule."""
    if not isinstance(value, dict):
        raise PackageError(f"{label} must be a dict from names to arrays, got {type(value).__name__}")
    missing, extra = [k for k in keys if k not in value], [k for k in value if k not in keys]
    if missing or extra:
        raise PackageError(
            f"{label} must have exactly the keys {list(keys)}"
            + (f"; missing {missing}" if missing else "")
            + (f"; not declared {extra}" if extra else "")
        )
    members, elements = {}, 0
    for key, ndim in keys.items():
        where = f"{label}[{key!r}]"
        try:
            array = read_npy(value[key] if isinstance(value[key], bytes) else b"", max_bytes + 4096)
        except UnreadableArray as exc:
            raise PackageError(f"{where} is not an array: {exc}") from None
        if array.dtype != np.dtype("<f8"):
            raise PackageError(f"{where} must be a float64 array, got {array.dtype}")
        if array.ndim != ndim:
            raise PackageError(f"{where} must have {ndim} axes, got shape {array.shape}")
        if not np.isfinite(array).all():
            raise PackageError(f"{where} must be finite (it holds NaN or inf)")
        elements += array.size
        members[key] = to_npy(np.ascontiguousarray(array))
    if elements > MAX_CASE_ELEMENTS:
        raise PackageError(f"{label} holds {elements:,} elements; at most {MAX_CASE_ELEMENTS:,} are allowed")
    return members


def reference_outputs(
    package: Package,
    generated: list[GeneratedCase],
    sandbox: Sandbox,
    max_output_bytes: int = MAX_OUTPUT_BYTES,
    code: str | None = None,
    where: str = "solution.py",
) -> tuple[list[bytes], list[float]]:
    """The reference's output on every case (.npy bytes) and its time per case (ms)."""
    where = f"{package.slug}/{where}"
    spec = package.spec(max_output_bytes)
    events = sandbox.run(job_of(package.solution if code is None else code, spec, generated)).events
    early = parse_before_tests(events[0]) if events else None
    if early is not None:
        raise ReferenceFailed(f"{where}: {early_report(early, spec, []).message}")
    tests = [event for event in events if event.get("event") == "test"]
    if len(tests) > len(generated) or (len(tests) < len(generated) and not stopped_by_timeout(tests)):
        raise SandboxError(f"sandbox reported {len(tests)} results for {len(generated)} cases")
    outputs, times = [], []
    for raw, case in zip(tests, generated):
        output, time_ms = _reference_output(raw, case, where, max_output_bytes, spec.returns, spec.dtypes)
        outputs.append(output)
        times.append(time_ms)
    return outputs, times


def _reference_output(
    raw: dict[str, Any],
    case: GeneratedCase,
    where: str,
    max_bytes: int,
    returns: Returns | None = None,
    dtypes: dict[str, str] | None = None,
) -> tuple[bytes, float]:
    """The reference's output on one case as .npy bytes (packed members for several outputs), each array of its
    declared dtype (``dtypes``, ``ProblemSpec.dtypes``: float64 unless declared), and its time in ms."""
    dtypes = dtypes or {}
    try:
        event = TestEvent.parse(raw)
    except Malformed as exc:
        raise ReferenceFailed(f"{where}: malformed result on {case.name} ({exc})") from None
    if returns is not None and event.outcome == Outcome.RETURNED:
        return _reference_members(event, case, where, max_bytes, returns, dtypes), event.time_ms
    if event.outcome == Outcome.ERROR and event.error:
        line = f" (line {event.error.frames[-1]['line']})" if event.error.frames else ""
        raise ReferenceFailed(f"{where}: raised {event.error.type} on {case.name}: {event.error.message}{line}")
    if event.outcome == Outcome.WRONG_TYPE:
        wanted = returns.describe() if returns else "an ndarray"
        raise ReferenceFailed(f"{where}: returned {event.type_description}, not {wanted}, on {case.name}", "float64")
    if event.outcome != Outcome.RETURNED:
        detail = f": {event.detail}" if event.detail else ""
        raise ReferenceFailed(f"{where}: {event.outcome.replace('_', ' ')} on {case.name}{detail}")
    try:
        array = read_npy(event.output or b"", max_bytes + 4096)
    except UnreadableArray as exc:
        raise ReferenceFailed(f"{where}: unreadable result on {case.name} ({exc})", "float64") from None
    wanted = dtypes.get("", FLOAT64)
    if array.dtype != np.dtype(wanted).newbyteorder("<"):
        raise ReferenceFailed(f"{where}: must return {_a(wanted)} ndarray on {case.name}, got {array.dtype}", "float64")
    if case.shape is not None and array.shape != case.shape:
        raise ReferenceFailed(
            f"{where}: returned shape {array.shape} on {case.name}; the generator declares {case.shape}", "float64"
        )
    _unchanged(event, case, where)
    # np.require, not np.ascontiguousarray: the latter turns a 0-d result (a loss) into shape (1,).
    return to_npy(np.require(array, requirements="C")), event.time_ms


def _a(dtype: str) -> str:
    return f"an {dtype}" if dtype[0] in "aeiou" else f"a {dtype}"


def _unchanged(event: TestEvent, case: GeneratedCase, where: str) -> None:
    if event.input_hashes != {name: npy_hash(data) for name, data in case.array_inputs().items()}:
        raise ReferenceFailed(f"{where}: modified its inputs on {case.name}")


def _reference_members(
    event: TestEvent, case: GeneratedCase, where: str, max_bytes: int, returns: Returns, dtypes: dict[str, str]
) -> bytes:
    """The reference's tuple or dict as packed members (``engine/members.py``), each an array of its dtype."""
    try:
        members = split(event, returns, hidden=False)
    except Mismatch as exc:
        raise ReferenceFailed(f"{where}: on {case.name}: {exc}", "float64") from None
    packed = {}
    for name, member in members.items():
        try:
            array = read_npy(member.output or b"", max_bytes + 4096)
        except UnreadableArray as exc:
            raise ReferenceFailed(f"{where}: {name} on {case.name} is not an array ({exc})", "float64") from None
        wanted = dtypes.get(name, FLOAT64)
        if array.dtype != np.dtype(wanted).newbyteorder("<"):
            raise ReferenceFailed(
                f"{where}: {name} must be {_a(wanted)} ndarray on {case.name}, got {array.dtype}", "float64"
            )
        packed[name] = to_npy(np.require(array, requirements="C"))
    _unchanged(event, case, where)
    return pack(packed)


def finite_difference_outputs(
    package: Package, generated: list[GeneratedCase], sandbox: Sandbox, max_output_bytes: int = MAX_OUTPUT_BYTES
) -> dict[str, bytes]:
    """``finite_difference.py``'s estimate on every case marked ``fd``, by case name (none without the file)."""
    marked = [case for case in generated if case.fd]
    if not package.finite_difference or not marked:
        return {}
    outputs, _ = reference_outputs(
        package, marked, sandbox, max_output_bytes, package.finite_difference, "finite_difference.py"
    )
    return {case.name: output for case, output in zip(marked, outputs)}


def build_cases(package: Package, sandbox: Sandbox, max_output_bytes: int = MAX_OUTPUT_BYTES) -> list[Case]:
    """Generate inputs and compute expected outputs with the reference (and estimates), all in ``sandbox``."""
    generated = generate_cases(package, sandbox)
    expected, _ = reference_outputs(package, generated, sandbox, max_output_bytes)
    estimates = finite_difference_outputs(package, generated, sandbox, max_output_bytes)
    return [
        Case(c.name, c.hidden, c.inputs, output, probe=c.probe, fd_expected=estimates.get(c.name))
        for c, output in zip(generated, expected)
    ]
