"""Problem packages: the folders under ``problems/``.

A package is the source of truth for a problem.  ``load_package`` reads and
validates one folder (a malformed one raises ``PackageError`` naming the file
and field); ``build_cases`` runs its generator and reference solution to make
the test set.  Nothing here touches the database.

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
import importlib.util
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from judge.grading.arrays import to_npy
from judge.grading.grader import Case, ProblemSpec
from judge.grading.verdicts import TestStatus

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
# Building the test set (author code: runs at sync time, never in a worker)
# --------------------------------------------------------------------------


def _module_from(path: Path, source: str, label: str):
    name = f"_judge_package_{path.name}_{label}"
    spec = importlib.util.spec_from_loader(name, loader=None, origin=str(path / f"{label}.py"))
    module = importlib.util.module_from_spec(spec)
    try:
        exec(compile(source, str(path / f"{label}.py"), "exec"), module.__dict__)
    except Exception as exc:
        raise PackageError(f"{path.name}/{label}.py: raised {type(exc).__name__}: {exc}") from None
    finally:
        sys.modules.pop(name, None)
    return module


def generate_inputs(package: Package) -> list[dict]:
    where = f"{package.slug}/tests.py"
    module = _module_from(package.path, package.generator, "tests")
    if not callable(getattr(module, "generate", None)):
        raise PackageError(f"{where}: must define generate(rng)")
    cases, names = [], set()
    try:
        produced = list(module.generate(np.random.default_rng(package.seed)))
    except Exception as exc:
        raise PackageError(f"{where}: generate() raised {type(exc).__name__}: {exc}") from None
    for index, raw in enumerate(produced):
        label = f"{where}: case {index}"
        if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not isinstance(raw.get("args"), dict):
            raise PackageError(f"{label} must be a dict with a string 'name' and a dict 'args'")
        if raw["name"] in names:
            raise PackageError(f"{label}: duplicate name {raw['name']!r}")
        names.add(raw["name"])
        unknown = set(raw["args"]) - set(package.params)
        if unknown:
            raise PackageError(f"{label} ({raw['name']}): unknown argument(s) {sorted(unknown)}")
        for name, value in raw["args"].items():
            if type(value) is not np.ndarray or value.dtype.hasobject or value.size > MAX_CASE_ELEMENTS:
                raise PackageError(f"{label} ({raw['name']}): argument {name!r} must be a numeric ndarray")
        ordered = {p: np.ascontiguousarray(raw["args"][p]) for p in package.params if p in raw["args"]}
        cases.append({"name": raw["name"], "hidden": bool(raw.get("hidden", True)), "args": ordered})
    if not cases:
        raise PackageError(f"{where}: generate() yielded no cases")
    if all(case["hidden"] for case in cases):
        raise PackageError(f"{where}: at least one case must be visible (hidden = False)")
    return cases


def build_cases(package: Package) -> list[Case]:
    """Generate inputs and compute expected outputs with the reference solution."""
    reference = getattr(_module_from(package.path, package.solution, "solution"), package.function, None)
    if not callable(reference):
        raise PackageError(f"{package.slug}/solution.py: must define {package.function}()")
    built = []
    for case in generate_inputs(package):
        args = {name: value.copy() for name, value in case["args"].items()}
        try:
            expected = reference(**args)
        except Exception as exc:
            raise PackageError(f"{package.slug}/solution.py: raised {type(exc).__name__} on {case['name']}: {exc}") from None
        if type(expected) is not np.ndarray or expected.dtype != np.float64:
            raise PackageError(f"{package.slug}/solution.py: must return a float64 ndarray on {case['name']}")
        if any(not np.array_equal(args[n], case["args"][n], equal_nan=True) for n in args):
            raise PackageError(f"{package.slug}/solution.py: modified its inputs on {case['name']}")
        built.append(Case(
            name=case["name"], hidden=case["hidden"],
            inputs={name: to_npy(value) for name, value in case["args"].items()},
            expected=to_npy(np.ascontiguousarray(expected)),
        ))
    return built
