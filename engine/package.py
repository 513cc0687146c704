"""Problem packages: the folders under ``problems/``, read and validated.

``load_package`` reads one folder (a malformed one raises ``PackageError``
naming the file and field).  Nothing here runs a package's code or touches the
database: ``engine/testset.py`` builds the test set in a sandbox.

Layout of ``problems/<slug>/``::

    problem.toml      manifest: title, difficulty, tags, function (and parameter kinds, and the earlier
                      problems it builds on), limits, tolerances, seed, known-wrong solutions, probes
    statement.md      the task, in Markdown with $math$
    theory.md         the theory page
    editorial.md      optional: the reference approach, common mistakes, the fastest vectorised approach;
                      shown after a student's first accepted Submit (``[editorial] after_failed = N``: or after
                      N failed Submits)
    hints/NN.md       ordered hints
    starter.py        shown in the editor; must not pass
    solution.py       the reference solution; never shown before a student solves it
    generator.py      generate(rng) yields {"name", "hidden", "args"} dicts (``"probe": True`` for probe inputs);
                      packages and drafts from before the rename call it tests.py, which is still read
    wrong/*.py        known-wrong solutions listed in problem.toml
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from engine.events import MAX_MEMBERS
from engine.members import DICT, TUPLE, Returns
from engine.probes import RegionError, parse_region
from engine.spec import FLOAT64, INT64, OUTPUT_DTYPES, ParamKind, ProbeSpec, ProblemSpec
from engine.verdicts import TestStatus
from sandbox.protocol import MAX_OUTPUT_BYTES

MANIFEST = "problem.toml"
SLUG = re.compile(r"^[a-z][a-z0-9_]{1,79}$")
DIFFICULTIES = ("easy", "medium", "hard")
WRONG_CHECKS = {s.value for s in TestStatus} - {TestStatus.PASSED, TestStatus.NOT_RUN}
# [display] picture: how the result page draws an output ("curve" also keeps a passed visible test's output)
PICTURES = ("kept_tokens", "heatmap", "curve")
# check -> number of cases (a distribution's one is a prefix of its draws' names)
PROBE_CHECKS = {"unchanged": 2, "changed": 2, "sums_to_one": 1, "values_in": 1, "falls": 1, "distribution": 1}
# The fewest draws a distribution probe reads: with fewer, a share says little about a probability.
MIN_DRAWS = 20
# What a manifest may ask for; beyond these a package is refused with the bound in the message.
BOUNDS = {
    "time_limit_s": (0.05, 30.0),
    "budget_s": (0.1, 300.0),
    "memory_mb": (32, 4096),
    "rtol": (0.0, 0.1),
    "atol": (0.0, 0.1),
    "fd_rtol": (0.0, 0.1),
    "fd_atol": (0.0, 0.1),
    "after_failed": (1, 100),
}
FINITE_DIFFERENCE = "finite_difference.py"


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
    probes: tuple[str, ...] = ()  # the probes this solution must trigger


@dataclass
class Package:
    path: Path
    slug: str
    title: str
    summary: str
    difficulty: str
    tags: list[str]
    prerequisites: list[str]
    track: str
    problem: ProblemSpec  # everything grading needs
    seed: int
    statement: str
    theory: str
    hints: list[str]
    starter: str
    solution: str
    generator: str
    wrong: list[WrongSpec] = field(default_factory=list)
    finite_difference: str = ""  # finite_difference.py: the answer estimated from the forward, or ""
    content_hash: str = ""
    generator_file: str = "generator.py"  # or tests.py, its name before the rename
    editorial: str = ""
    editorial_after_failed: int | None = None  # [editorial] after_failed: also shown after this many failed Submits
    speed_cases: tuple[str, ...] = ()  # [speed] cases: the cases speed is measured on (default: the largest hidden)

    def spec(self, max_output_bytes: int = MAX_OUTPUT_BYTES) -> ProblemSpec:
        return dataclasses.replace(self.problem, max_output_bytes=max_output_bytes)

    def record(self) -> dict[str, Any]:
        """What the site stores of a published package: the one list of a problem's fields."""
        return {
            "title": self.title,
            "summary": self.summary,
            "difficulty": self.difficulty,
            "tags": self.tags,
            "prerequisites": self.prerequisites,
            "track": self.track,
            "statement_md": self.statement,
            "theory_md": self.theory,
            "hints": self.hints,
            "starter_code": self.starter,
            "solution_code": self.solution,
            "spec": self.problem.as_dict(),
            "package_hash": self.content_hash,
            "editorial_md": self.editorial,
            "editorial_after_failed": self.editorial_after_failed,
        }


class _Fields:
    """Typed access to one TOML table, with errors that name the file and field."""

    def __init__(self, where: str, table: object, prefix: str = "") -> None:
        if not isinstance(table, dict):
            raise PackageError(f"{where}: [{prefix.rstrip('.')}] must be a table")
        self.where, self.table, self.prefix = where, table, prefix

    def fail(self, key: str, problem: str) -> PackageError:
        return PackageError(f"{self.where}: {self.prefix}{key} {problem}")

    def get(self, key: str, kind: type | tuple[Any, ...], default: object = ...) -> Any:
        """The value at ``key``, of type ``kind`` (checked here: typed Any for its callers), or ``default``."""
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

    def text(self, key: str, default: object = ..., pattern: re.Pattern[str] | None = None) -> str:
        value: str = self.get(key, str, default)
        if pattern is not None and not pattern.match(value):
            raise self.fail(key, f"must match {pattern.pattern}, got {value!r}")
        return value

    def strings(self, key: str, default: object = ...) -> list[str]:
        value = self.get(key, list, default)
        if not all(isinstance(item, str) for item in value):
            raise self.fail(key, "must be a list of strings")
        return list(value)

    @overload
    def positive(self, key: str, kind: type, default: None) -> float | None: ...
    @overload
    def positive(self, key: str, kind: type = float) -> float: ...

    def positive(self, key: str, kind: type = float, default: object = ...) -> float | None:
        value = self.get(key, (int, float) if kind is float else int, default)
        if value is None:
            return None
        if value <= 0:
            raise self.fail(key, f"must be positive, got {value}")
        return self.bounded(key, kind(value))

    def number(self, key: str) -> float:
        return self.bounded(key, float(self.get(key, (int, float))))

    def bounded(self, key: str, value: float) -> float:
        low, high = BOUNDS[key]
        if not low <= value <= high:
            raise self.fail(key, f"must be between {low:g} and {high:g}, got {value:g}")
        return value

    def table_of(self, key: str) -> _Fields:
        return _Fields(self.where, self.get(key, dict), f"{self.prefix}{key}.")


def _kind_name(kind: type | tuple[Any, ...]) -> str:
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


GENERATOR = "generator.py"
OLD_GENERATOR = "tests.py"  # the generator's name before it was renamed; packages and drafts may still use it


def generator_file(path: Path) -> str:
    """The generator's file name in the package at ``path``: generator.py, or tests.py in an older package."""
    new, old = (path / GENERATOR).is_file(), (path / OLD_GENERATOR).is_file()
    if new and old:
        raise PackageError(f"{path.name}: both {GENERATOR} and {OLD_GENERATOR} (its old name); keep {GENERATOR}")
    return OLD_GENERATOR if old else GENERATOR


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
    tests = top.table_of("tests")
    generator = generator_file(path)
    package = Package(
        path=path,
        slug=slug,
        title=top.text("title"),
        summary=top.text("summary", ""),
        difficulty=difficulty,
        tags=top.strings("tags", []),
        prerequisites=top.strings("prerequisites", []),
        track=top.text("track", "", pattern=re.compile(r"^[a-z0-9-]{0,60}$")),
        problem=_problem_spec(top, _probes(top), (path / FINITE_DIFFERENCE).is_file()),
        seed=_seed(tests),
        statement=_read(path, "statement.md"),
        theory=_read(path, "theory.md", required=False),
        hints=[_read(path, f"hints/{h.name}") for h in sorted((path / "hints").glob("*.md"))],
        starter=_read(path, "starter.py"),
        solution=_read(path, "solution.py"),
        generator=_read(path, generator),
        generator_file=generator,
    )
    package.finite_difference = _read(path, FINITE_DIFFERENCE, required=False)
    package.editorial = _read(path, "editorial.md", required=False)
    editorial = top.table_of("editorial") if "editorial" in manifest else None
    if editorial is not None:
        package.editorial_after_failed = int(editorial.positive("after_failed", int))
    if "speed" in manifest:
        package.speed_cases = tuple(top.table_of("speed").strings("cases"))
    # What a problem builds on comes before it on the learning path, and must exist, as a prerequisite does.
    package.prerequisites += [s for s in package.problem.builds_on if s not in package.prerequisites]
    probe_names = {probe.name for probe in package.problem.probes}
    for index, entry in enumerate(top.get("wrong", list, [])):
        package.wrong.append(_wrong_spec(path, _Fields(where, entry, f"wrong[{index}]."), probe_names))
    package.content_hash = content_hash(path)
    return package


def _problem_spec(top: _Fields, probes: tuple[ProbeSpec, ...], finite_difference: bool) -> ProblemSpec:
    function, limits, checking = top.table_of("function"), top.table_of("limits"), top.table_of("checking")
    params = function.strings("params")
    if not params or len(set(params)) != len(params) or not all(p.isidentifier() for p in params):
        raise function.fail("params", "must be a non-empty list of distinct Python identifiers")
    kinds = _kinds(function, params)
    returns, dtypes = _returns(function)
    for probe in probes:
        if bool(probe.member) != (returns is not None) or (returns and probe.member not in returns.names):
            raise PackageError(
                f"{top.where}: probe {probe.name!r}: 'member' must name one of the declared outputs"
                if returns
                else f"{top.where}: probe {probe.name!r}: 'member' needs [function.returns]"
            )
    return ProblemSpec(
        function=function.text("name", pattern=re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")),
        params=params,
        time_limit_s=limits.positive("time_limit_s"),
        memory_mb=int(limits.positive("memory_mb", int)),
        rtol=checking.number("rtol"),
        atol=checking.number("atol"),
        kinds=kinds,
        budget_s=limits.positive("budget_s", float, None),
        probes=probes,
        fd_rtol=checking.number("fd_rtol") if finite_difference else None,
        fd_atol=checking.number("fd_atol") if finite_difference else None,
        builds_on=_builds_on(function, top.text("slug")),
        returns=returns,
        keys=_keys(function, kinds),
        dtypes=dtypes,
        picture=_picture(top, returns),
        shown_as_bytes=_shown_as_bytes(top, kinds, returns, dtypes),
    )


def _picture(top: _Fields, returns: Returns | None) -> str:
    """``[display] picture``: "kept_tokens" (logits in, the same logits with -inf out), "heatmap", or "curve"
    (each visible test's output drawn beside the reference's as a line, a loss per step)."""
    if "display" not in top.table:
        return ""
    display = top.table_of("display")
    picture = display.text("picture", "")
    if picture and picture not in PICTURES:
        raise display.fail("picture", f"must be one of {', '.join(PICTURES)}, got {picture!r}")
    if picture == "curve" and returns is not None:
        raise display.fail("picture", "a curve draws one returned array, not several outputs")
    return picture


def _shown_as_bytes(
    top: _Fields, kinds: dict[str, str], returns: Returns | None, dtypes: dict[str, str]
) -> tuple[str, ...]:
    """``[display] bytes``: the integer arrays that hold bytes (text), which the pages show as text as well:
    parameters of kind ``int_array``, and ``"output"`` (a one-array function's) or the names of outputs, declared
    int64."""
    if "display" not in top.table:
        return ()
    display = top.table_of("display")
    names = display.strings("bytes", [])
    outputs = {("output" if name == "" else name) for name, dtype in dtypes.items() if dtype == INT64}
    allowed = {p for p, kind in kinds.items() if kind == ParamKind.INT_ARRAY} | outputs
    for name in names:
        if name not in allowed:
            raise display.fail(
                "bytes",
                f"{name!r} is not an int_array parameter or an int64 output; bytes can be "
                f"shown for {', '.join(sorted(allowed)) or 'none of this function'}",
            )
    return tuple(names)


MEMBER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def _returns(function: _Fields) -> tuple[Returns | None, dict[str, str]]:
    """``[function.returns]``: kind "tuple" or "dict" and the members' names (``engine/members.py``), with
    ``dtypes = { member = "int64" }`` for members that are not float64; without ``kind``, one array whose
    ``dtype`` it may declare.  The dtypes come back as ``ProblemSpec.dtypes`` keeps them ("" for one array)."""
    if "returns" not in function.table:
        return None, {}
    table = function.table_of("returns")
    if "kind" not in table.table:
        unknown = sorted(set(table.table) - {"dtype"})
        if unknown:
            raise table.fail(
                unknown[0],
                'needs kind = "tuple" or "dict" (without a kind, the output is one '
                "array and only its dtype may be declared)",
            )
        dtype = _dtype(table, "dtype", table.text("dtype", FLOAT64))
        return None, {"": dtype} if dtype != FLOAT64 else {}
    kind = table.text("kind")
    if kind not in (TUPLE, DICT):
        raise table.fail("kind", f"must be {TUPLE!r} or {DICT!r}, got {kind!r}")
    names = table.strings("names")
    if not 1 <= len(names) <= MAX_MEMBERS or len(set(names)) != len(names):
        raise table.fail("names", f"must list 1 to {MAX_MEMBERS} distinct names")
    for name in names:
        if not MEMBER_NAME.match(name):
            raise table.fail("names", f"must be Python identifiers of at most 40 characters, got {name!r}")
    if "dtype" in table.table:
        raise table.fail("dtype", 'is for one array; name each output\'s dtype in dtypes = { name = "int64" }')
    declared = table.table_of("dtypes").table if "dtypes" in table.table else {}
    dtypes = {}
    for name, dtype in declared.items():
        if name not in names:
            raise table.fail("dtypes", f"names {name!r}, which is not one of the outputs {names}")
        dtypes[name] = _dtype(table, f"dtypes.{name}", dtype)
    return Returns(kind, tuple(names)), {name: dtype for name, dtype in dtypes.items() if dtype != FLOAT64}


def _dtype(table: _Fields, key: str, value: object) -> str:
    if not isinstance(value, str) or value not in OUTPUT_DTYPES:
        raise table.fail(key, f"must be one of {', '.join(OUTPUT_DTYPES)}, got {value!r}")
    return value


def _keys(function: _Fields, kinds: dict[str, str]) -> dict[str, dict[str, int]]:
    """``[function.keys.<param>]`` for each ``params`` parameter: its keys and each array's number of axes."""
    wanted = [name for name, kind in kinds.items() if kind == ParamKind.PARAMS]
    table = function.table_of("keys") if "keys" in function.table else _Fields(function.where, {}, "function.keys.")
    for name in table.table:
        if name not in wanted:
            raise table.fail(name, "is not a parameter of kind params")
    keys: dict[str, dict[str, int]] = {}
    for name in wanted:
        if name not in table.table:
            raise table.fail(name, "is missing: a params parameter declares its keys and their numbers of axes")
        entry = table.table_of(name)
        if not entry.table:
            raise entry.fail("", "must declare at least one key")
        keys[name] = {}
        for key in entry.table:
            ndim = entry.get(key, int)
            if not MEMBER_NAME.match(key) or not 0 <= ndim <= 6:
                raise entry.fail(key, f"must be an identifier with a number of axes from 0 to 6, got {ndim!r}")
            keys[name][key] = ndim
    return keys


def _builds_on(function: _Fields, slug: str) -> tuple[str, ...]:
    """The earlier problems whose accepted solutions the code may import (``from solved import <slug>``)."""
    slugs = function.strings("builds_on", [])
    for name in slugs:
        if not SLUG.match(name):
            raise function.fail("builds_on", f"must list problem slugs, got {name!r}")
    if slug in slugs:
        raise function.fail("builds_on", f"cannot name the problem itself ({slug!r})")
    if len(set(slugs)) != len(slugs):
        raise function.fail("builds_on", f"names a problem twice: {slugs}")
    return tuple(slugs)


def _kinds(function: _Fields, params: list[str]) -> dict[str, str]:
    if "kinds" not in function.table:
        return {}
    table = function.table_of("kinds")
    kinds = {}
    for name in table.table:
        if name not in params:
            raise table.fail(name, f"is not one of the parameters {params}")
        kind = table.text(name)
        if kind not in set(ParamKind):
            raise table.fail(name, f"must be one of {', '.join(ParamKind)}, got {kind!r}")
        if kind != ParamKind.ARRAY:
            kinds[name] = kind
    return kinds


def _seed(tests: _Fields) -> int:
    seed: int = tests.get("seed", int)
    if not 0 <= seed < 2**63:
        raise tests.fail("seed", f"must be between 0 and 2**63 - 1, got {seed}")
    return seed


def _probes(top: _Fields) -> tuple[ProbeSpec, ...]:
    probes: list[ProbeSpec] = []
    for index, raw in enumerate(top.get("probes", list, [])):
        entry = _Fields(top.where, raw, f"probes[{index}].")
        check = entry.text("check")
        if check not in PROBE_CHECKS:
            raise entry.fail("check", f"must be one of {', '.join(PROBE_CHECKS)}, got {check!r}")
        cases = entry.strings("cases")
        if len(cases) != PROBE_CHECKS[check]:
            raise entry.fail("cases", f"must name {PROBE_CHECKS[check]} probe case(s) for {check}, got {len(cases)}")
        compare = entry.text("compare", "")
        if compare not in ("", "gram"):
            raise entry.fail("compare", f"must be 'gram' or absent, got {compare!r}")
        values = entry.get("values", list, [])
        numbers = all(isinstance(v, (int, float)) for v in values)
        if (check in ("values_in", "distribution") and not values) or not numbers:
            raise entry.fail("values", f"must be a non-empty list of numbers for {check}")
        within = entry.get("within", (int, float), 0.0)
        if check == "distribution":
            _distribution(entry, cases[0], values, within)
        probe = ProbeSpec(
            name=entry.text("name"),
            check=check,
            cases=tuple(cases),
            message=entry.text("message"),
            explanation=entry.text("explanation", ""),
            see=entry.text("see", ""),
            region=_region(entry, "region"),
            region_b=_region(entry, "region_b"),
            compare=compare,
            axis=entry.get("axis", int, -1),
            values=tuple(float(v) for v in values if not math.isnan(v)),
            member=entry.text("member", ""),
            within=float(within),
        )
        if probe.name in {p.name for p in probes}:
            raise entry.fail("name", f"repeats the probe name {probe.name!r}")
        probes.append(probe)
    return tuple(probes)


def _distribution(entry: _Fields, prefix: str, values: list[Any], within: float) -> None:
    """A distribution probe: one prefix of its draws' names, the probability of each id 0, 1, ..., and how far
    a share may be from it."""
    if not prefix.endswith("*") or len(prefix) < 2:
        raise entry.fail("cases", f"must name its draws by one prefix ending in '*' for distribution, got {prefix!r}")
    if any(v < 0 for v in values) or not math.isclose(sum(values), 1.0, abs_tol=1e-9):
        raise entry.fail(
            "values", "must be the probabilities of the ids 0, 1, ... for distribution (>= 0, summing to 1)"
        )
    if not 0 < within < 1:
        raise entry.fail("within", f"must be between 0 and 1 (exclusive) for distribution, got {within!r}")


def _region(entry: _Fields, key: str) -> str:
    text = entry.text(key, "")
    try:
        parse_region(text)
    except RegionError as exc:
        raise entry.fail(key, str(exc)) from None
    return text


def _wrong_spec(path: Path, entry: _Fields, probe_names: set[str]) -> WrongSpec:
    file = entry.text("file")
    fails_with = entry.text("fails_with")
    if fails_with not in WRONG_CHECKS:
        raise entry.fail("fails_with", f"must be one of {', '.join(sorted(WRONG_CHECKS))}, got {fails_with!r}")
    probes = entry.strings("probes", [])
    unknown = [name for name in probes if name not in probe_names]
    if unknown:
        raise entry.fail("probes", f"names no declared probe: {unknown}")
    return WrongSpec(
        file=file,
        code=_read(path, file),
        fails_with=fails_with,
        name=entry.text("name"),
        explanation=entry.text("explanation", ""),
        see=entry.text("see", ""),
        probes=tuple(probes),
    )


TRACKS = "tracks.toml"


def load_tracks(root: Path) -> list[dict[str, Any]]:
    """The catalogue's tracks in order ({"slug", "title", "summary", "problems"}), from ``problems/tracks.toml`` if it
    exists; ``problems`` is the order the track's author chose for its problems (prerequisites still come first)."""
    file = root / TRACKS
    if not file.is_file():
        return []
    try:
        entries = tomllib.loads(file.read_text(encoding="utf-8")).get("track", [])
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PackageError(f"{TRACKS}: {exc}") from None
    tracks = []
    for index, raw in enumerate(entries):
        entry = _Fields(TRACKS, raw, f"track[{index}].")
        listed = raw.get("problems", [])
        if not isinstance(listed, list) or not all(isinstance(slug, str) for slug in listed):
            raise PackageError(f"{TRACKS}: track[{index}].problems must be a list of problem slugs")
        tracks.append(
            {
                "slug": entry.text("slug"),
                "title": entry.text("title"),
                "summary": entry.text("summary", ""),
                "problems": listed,
            }
        )
    return tracks


def discover(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / MANIFEST).is_file())
