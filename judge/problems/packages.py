"""Problem packages: the folders under ``problems/``.

``load_package`` reads and validates one folder (a malformed one raises
``PackageError`` naming the file and field); ``build_cases`` runs its
generator and reference solution, in a sandbox, to make the test set.
Nothing here touches the database.

Layout of ``problems/<slug>/``::

    problem.toml      manifest: title, difficulty, tags, function, limits, tolerances, seed, wrong solutions
    statement.md      the task, in Markdown with $math$
    theory.md         the theory page
    hints/NN.md       ordered hints
    starter.py        shown in the editor; must not pass
    solution.py       the reference solution; never shown before a student solves it
    tests.py          generate(rng) yields {"name", "hidden", "args"} dicts
    wrong/*.py        known-wrong solutions listed in problem.toml
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from judge.grading.arrays import UnreadableArray, npy_hash, read_npy, to_npy
from judge.grading.events import ErrorInfo, Malformed, TestEvent
from judge.grading.grader import Case, ProblemSpec, interpret
from judge.grading.verdicts import TestStatus
from sandbox.backends.base import GenerateJob, Job, JobTest, Sandbox, SandboxError
from sandbox.protocol import Outcome

MANIFEST = "problem.toml"
SLUG = re.compile(r"^[a-z][a-z0-9_]{1,79}$")
DIFFICULTIES = ("easy", "medium", "hard")
WRONG_CHECKS = {s.value for s in TestStatus} - {TestStatus.PASSED, TestStatus.NOT_RUN}
MAX_CASE_ELEMENTS = 2_000_000


class PackageError(ValueError):
    """A package is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class WrongSpec:
    file: str
    code: str
    fails_with: str
    name: str
    explanation: str
    see: str


@dataclass
class Package:
    path: Path
    slug: str
    title: str
    summary: str
    difficulty: str
    tags: list[str]
    prerequisites: list[str]
    function: str
    params: list[str]
    time_limit_s: float
    memory_mb: int
    rtol: float
    atol: float
    seed: int
    statement: str
    theory: str
    hints: list[str]
    starter: str
    solution: str
    generator: str
    wrong: list[WrongSpec] = field(default_factory=list)
    content_hash: str = ""

    def spec(self, max_output_bytes: int = 16 * 1024 * 1024) -> ProblemSpec:
        return ProblemSpec(self.function, self.params, self.time_limit_s, self.memory_mb,
                           self.rtol, self.atol, max_output_bytes)


class _Fields:
    """Typed access to one TOML table, with errors that name the file and field."""

    def __init__(self, where: str, table: object, prefix: str = "") -> None:
        if not isinstance(table, dict):
            raise PackageError(f"{where}: [{prefix.rstrip('.')}] must be a table")
        self.where, self.table, self.prefix = where, table, prefix

    def fail(self, key: str, problem: str) -> PackageError:
        return PackageError(f"{self.where}: {self.prefix}{key} {problem}")

    def get(self, key: str, kind: type | tuple, default: object = ...) -> object:
        if key not in self.table:
            if default is ...:
                raise self.fail(key, "is missing")
            return default
        value = self.table[key]
        if isinstance(value, bool) and kind is not bool:
            raise self.fail(key, f"must be {_kind_name(kind)}, got a boolean")
        if not isinstance(value, kind):
            raise self.fail(key, f"must be {_kind_name(kind)}, got {type(value).__name__}")
        return value

    def text(self, key: str, default: object = ..., pattern: re.Pattern | None = None) -> str:
        value = self.get(key, str, default)
        if pattern is not None and not pattern.match(value):
            raise self.fail(key, f"must match {pattern.pattern}, got {value!r}")
        return value

    def strings(self, key: str, default: object = ...) -> list[str]:
        value = self.get(key, list, default)
        if not all(isinstance(item, str) for item in value):
            raise self.fail(key, "must be a list of strings")
        return list(value)

    def positive(self, key: str, kind: type = float, default: object = ...) -> float:
        value = self.get(key, (int, float) if kind is float else int, default)
        if value <= 0:
            raise self.fail(key, f"must be positive, got {value}")
        return kind(value)

    def table_of(self, key: str) -> "_Fields":
        return _Fields(self.where, self.get(key, dict), f"{self.prefix}{key}.")


def _kind_name(kind: type | tuple) -> str:
    names = {str: "a string", int: "an integer", float: "a number", list: "a list", dict: "a table", bool: "a boolean"}
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def _read(path: Path, name: str, required: bool = True) -> str:
    file = path / name
    if not file.is_file():
        if required:
            raise PackageError(f"{path.name}/{name}: file is missing")
        return ""
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise PackageError(f"{path.name}/{name}: not UTF-8 ({exc.reason} at byte {exc.start})") from None


def content_hash(path: Path) -> str:
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(file.relative_to(path)).encode() + b"\0")
        digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def load_package(path: Path) -> Package:
    where = f"{path.name}/{MANIFEST}"
    try:
        manifest = tomllib.loads(_read(path, MANIFEST))
    except tomllib.TOMLDecodeError as exc:
        raise PackageError(f"{where}: invalid TOML: {exc}") from None
    top = _Fields(where, manifest)
    slug = top.text("slug", pattern=SLUG)
    if slug != path.name:
        raise top.fail("slug", f"must equal the folder name {path.name!r}, got {slug!r}")
    difficulty = top.text("difficulty")
    if difficulty not in DIFFICULTIES:
        raise top.fail("difficulty", f"must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}")
    function, limits = top.table_of("function"), top.table_of("limits")
    checking, tests = top.table_of("checking"), top.table_of("tests")
    params = function.strings("params")
    if not params or len(set(params)) != len(params) or not all(p.isidentifier() for p in params):
        raise function.fail("params", "must be a non-empty list of distinct Python identifiers")
    package = Package(
        path=path, slug=slug, title=top.text("title"), summary=top.text("summary", ""),
        difficulty=difficulty, tags=top.strings("tags", []), prerequisites=top.strings("prerequisites", []),
        function=function.text("name", pattern=re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")), params=params,
        time_limit_s=limits.positive("time_limit_s"), memory_mb=int(limits.positive("memory_mb", int)),
        rtol=float(checking.get("rtol", (int, float))), atol=float(checking.get("atol", (int, float))),
        seed=int(tests.get("seed", int)),
        statement=_read(path, "statement.md"), theory=_read(path, "theory.md", required=False),
        hints=[_read(path, f"hints/{h.name}") for h in sorted((path / "hints").glob("*.md"))],
        starter=_read(path, "starter.py"), solution=_read(path, "solution.py"), generator=_read(path, "tests.py"),
    )
    if package.rtol < 0 or package.atol < 0:
        raise checking.fail("rtol", "and atol must not be negative")
    for index, entry in enumerate(top.get("wrong", list, [])):
        package.wrong.append(_wrong_spec(path, _Fields(where, entry, f"wrong[{index}].")))
    package.content_hash = content_hash(path)
    return package


def _wrong_spec(path: Path, entry: _Fields) -> WrongSpec:
    file = entry.text("file")
    fails_with = entry.text("fails_with")
    if fails_with not in WRONG_CHECKS:
        raise entry.fail("fails_with", f"must be one of {', '.join(sorted(WRONG_CHECKS))}, got {fails_with!r}")
    return WrongSpec(file=file, code=_read(path, file), fails_with=fails_with, name=entry.text("name"),
                     explanation=entry.text("explanation", ""), see=entry.text("see", ""))


def discover(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / MANIFEST).is_file())


# --------------------------------------------------------------------------
# Building the test set.  Author code (generator, reference, known-wrong
# solutions) runs in a sandbox like student code, never in this process; what
# comes back is parsed as hostile data.
# --------------------------------------------------------------------------


class ReferenceFailed(PackageError):
    """The reference solution did not produce a usable expected output."""

    def __init__(self, message: str, check: str = "reference") -> None:
        super().__init__(message)
        self.check = check


@dataclass(frozen=True)
class GeneratedCase:
    name: str
    hidden: bool
    inputs: dict[str, bytes]  # parameter -> .npy bytes
    shape: tuple[int, ...] | None = None  # the expected output's shape, when the generator declares it


def generate_cases(package: Package, sandbox: Sandbox, max_bytes: int = 16 * 1024 * 1024) -> list[GeneratedCase]:
    """Run ``tests.py`` in the sandbox and validate every case it reports."""
    job = GenerateJob(code=package.generator, seed=package.seed, params=package.params, output_bytes=max_bytes)
    return parse_generated(sandbox.run(job).events, package, max_bytes)


def parse_generated(events: list[dict], package: Package, max_bytes: int) -> list[GeneratedCase]:
    where = f"{package.slug}/tests.py"
    if events and events[-1].get("event") == "generate_error":
        raise PackageError(f"{where}: {_error_text(events[-1].get('error'))}")
    if not events or events[-1].get("event") != "generated":
        raise PackageError(f"{where}: the generator did not report its end")
    cases, names = [], set()
    for index, event in enumerate(events[:-1]):
        cases.append(_parse_case(event, index, package, where, max_bytes))
        if cases[-1].name in names:
            raise PackageError(f"{where}: case {index}: duplicate name {cases[-1].name!r}")
        names.add(cases[-1].name)
    if not cases:
        raise PackageError(f"{where}: generate() yielded no cases")
    if all(case.hidden for case in cases):
        raise PackageError(f"{where}: at least one case must be visible (hidden = False)")
    return cases


def _parse_case(event: dict, index: int, package: Package, where: str, max_bytes: int) -> GeneratedCase:
    name, hidden, args = event.get("name"), event.get("hidden"), event.get("args")
    if event.get("event") != "case" or not isinstance(name, str) or not 0 < len(name) <= 100:
        raise PackageError(f"{where}: case {index} has no valid name")
    if not isinstance(hidden, bool) or not isinstance(args, dict) or set(args) - set(package.params):
        raise PackageError(f"{where}: case {index} ({name}) has invalid 'hidden' or argument names")
    inputs = {}
    for param in package.params:
        if param not in args:
            continue
        try:
            array = read_npy(args[param] if isinstance(args[param], bytes) else b"", max_bytes + 4096)
        except (UnreadableArray, ValueError) as exc:
            raise PackageError(f"{where}: case {index} ({name}): argument {param!r} is not an array: {exc}") from None
        if array.dtype.kind not in "biuf" or array.size > MAX_CASE_ELEMENTS:
            raise PackageError(f"{where}: case {index} ({name}): argument {param!r} must be a numeric ndarray")
        inputs[param] = to_npy(np.ascontiguousarray(array))
    shape = event.get("shape")
    if shape is not None and (not isinstance(shape, list) or len(shape) > 32
                              or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)):
        raise PackageError(f"{where}: case {index} ({name}): 'shape' must be a list of sizes")
    return GeneratedCase(name, hidden, inputs, tuple(shape) if shape is not None else None)


def _error_text(raw: object) -> str:
    try:
        error = ErrorInfo.parse(raw)
    except Malformed:
        return "the generator failed"
    line = f" (line {error.frames[-1]['line']}: {error.frames[-1]['text']})" if error.frames else ""
    return f"{error.type}: {error.message}{line}"


def job_for(code: str, spec: ProblemSpec, cases: list[GeneratedCase] | list[Case]) -> Job:
    return Job(code=code, function=spec.function, params=spec.params,
               tests=[JobTest(case.name, case.inputs) for case in cases],
               time_limit_s=spec.time_limit_s, memory_mb=spec.memory_mb, output_bytes=spec.max_output_bytes)


def reference_outputs(package: Package, generated: list[GeneratedCase], sandbox: Sandbox,
                      max_output_bytes: int = 16 * 1024 * 1024) -> tuple[list[bytes], list[float]]:
    """The reference's output on every case (.npy bytes) and its time per case (ms)."""
    where = f"{package.slug}/solution.py"
    spec = package.spec(max_output_bytes)
    events = sandbox.run(job_for(package.solution, spec, generated)).events
    if events and events[0].get("event") in ("compile_error", "missing_function", "load_error"):
        stand_ins = [Case(c.name, c.hidden, c.inputs, b"") for c in generated]
        raise ReferenceFailed(f"{where}: {interpret(events, spec, stand_ins).message}")
    tests = [event for event in events if event.get("event") == "test"]
    if len(tests) != len(generated):
        raise SandboxError(f"sandbox reported {len(tests)} results for {len(generated)} cases")
    outputs, times = [], []
    for raw, case in zip(tests, generated):
        output, time_ms = _reference_output(raw, case, where, max_output_bytes)
        outputs.append(output)
        times.append(time_ms)
    return outputs, times


def _reference_output(raw: dict, case: GeneratedCase, where: str, max_bytes: int) -> tuple[bytes, float]:
    try:
        event = TestEvent.parse(raw)
    except Malformed as exc:
        raise ReferenceFailed(f"{where}: malformed result on {case.name} ({exc})") from None
    if event.outcome == Outcome.ERROR and event.error:
        line = f" (line {event.error.frames[-1]['line']})" if event.error.frames else ""
        raise ReferenceFailed(f"{where}: raised {event.error.type} on {case.name}: {event.error.message}{line}")
    if event.outcome == Outcome.WRONG_TYPE:
        raise ReferenceFailed(f"{where}: returned {event.type_description}, not an ndarray, on {case.name}", "float64")
    if event.outcome != Outcome.RETURNED:
        detail = f": {event.detail}" if event.detail else ""
        raise ReferenceFailed(f"{where}: {event.outcome.replace('_', ' ')} on {case.name}{detail}")
    try:
        array = read_npy(event.output or b"", max_bytes + 4096)
    except UnreadableArray as exc:
        raise ReferenceFailed(f"{where}: unreadable result on {case.name} ({exc})", "float64") from None
    if array.dtype != np.dtype("<f8"):
        raise ReferenceFailed(f"{where}: must return a float64 ndarray on {case.name}, got {array.dtype}", "float64")
    if case.shape is not None and array.shape != case.shape:
        raise ReferenceFailed(
            f"{where}: returned shape {array.shape} on {case.name}; the generator declares {case.shape}", "float64")
    if event.input_hashes != {name: npy_hash(data) for name, data in case.inputs.items()}:
        raise ReferenceFailed(f"{where}: modified its inputs on {case.name}")
    return to_npy(np.ascontiguousarray(array)), event.time_ms


def build_cases(package: Package, sandbox: Sandbox | None = None,
                max_output_bytes: int = 16 * 1024 * 1024) -> list[Case]:
    """Generate inputs and compute expected outputs with the reference, both in a sandbox."""
    if sandbox is None:
        from judge.grading.sandboxes import open_sandbox

        with open_sandbox() as own:
            return build_cases(package, own, max_output_bytes)
    generated = generate_cases(package, sandbox)
    expected, _ = reference_outputs(package, generated, sandbox, max_output_bytes)
    return [Case(c.name, c.hidden, c.inputs, output) for c, output in zip(generated, expected)]
