"""The data types the engine owns: what a problem asks for, and one test case.

``ProblemSpec`` is everything grading needs to know about a problem: the
function and its parameters (with their kinds), the limits, the tolerances and
the probes.  The site stores it as one JSON value (``Problem.spec``), so the
field list exists here only.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from engine.arrays import npy_hash
from engine.checks import KnownWrong
from engine.members import Returns, input_name
from sandbox.protocol import MAX_OUTPUT_BYTES


class ParamKind(StrEnum):
    """What a parameter of the student's function receives."""

    ARRAY = "array"  # a float64 ndarray, always passed
    OPTIONAL_ARRAY = "optional_array"  # a float64 ndarray, or left out (the function's default applies)
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    PARAMS = "params"  # a dict from declared names to float64 ndarrays (the weights of a block), always passed
    INT_ARRAY = "int_array"  # an int64 ndarray (token ids, indices), always passed
    INT8_ARRAY = "int8_array"  # an int8 ndarray (quantised weights), always passed


# The dtypes an output may be declared with (``[function.returns] dtype``/``dtypes``); float64 is the default.
FLOAT64, INT64, INT8 = "float64", "int64", "int8"
OUTPUT_DTYPES = (FLOAT64, INT64, INT8)


Scalar = int | float | bool
# An argument as it travels: .npy bytes for an array, {name: .npy bytes} for params, the plain value for a scalar.
Value = bytes | dict[str, bytes] | Scalar


class BadArgument(ValueError):
    """A value does not fit its parameter's kind."""


def check_scalar(kind: str, value: object) -> Scalar:
    """``value`` as the plain Python value of a scalar kind, or BadArgument."""
    if kind == ParamKind.BOOL:
        if type(value) is not bool:
            raise BadArgument(f"must be True or False, got {type(value).__name__}")
        return value
    if kind == ParamKind.INT:
        if type(value) is not int or abs(value) > 2**53:
            raise BadArgument(f"must be an integer, got {type(value).__name__}")
        return value
    if type(value) not in (int, float):
        raise BadArgument(f"must be a number, got {type(value).__name__}")
    return float(value)  # type: ignore[arg-type]  # an int or a float: its type was checked above


@dataclass(frozen=True)
class ProbeSpec:
    """A relation a correct output satisfies, checked on the student's outputs (``engine/probes.py``)."""

    name: str
    check: str  # unchanged | changed | sums_to_one | values_in | falls | distribution
    # The probe cases it reads; for distribution one prefix ending in "*": every probe case whose name starts
    # with it is one draw.
    cases: tuple[str, ...]
    message: str
    explanation: str = ""
    see: str = ""
    region: str = ""
    region_b: str = ""
    compare: str = ""  # "" or "gram"
    axis: int = -1
    values: tuple[float, ...] = ()
    member: str = ""  # for a function with several outputs: the one the probe reads
    # distribution: how far each id's share of the draws may be from its probability in ``values``.
    within: float = 0.0

    def reads(self, names: list[str]) -> list[str]:
        """The probe cases among ``names`` that this probe reads, in order."""
        if self.check != "distribution":
            return list(self.cases)
        prefix = self.cases[0].removesuffix("*")
        return [name for name in names if name.startswith(prefix)]

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        # JSON has no infinities: store them as text.
        data["values"] = [v if math.isfinite(v) else repr(v) for v in self.values]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProbeSpec:
        return cls(**{**data, "cases": tuple(data["cases"]), "values": tuple(float(v) for v in data["values"])})


@dataclass(frozen=True)
class ProblemSpec:
    function: str
    params: list[str]
    time_limit_s: float
    memory_mb: int
    rtol: float
    atol: float
    max_output_bytes: int = MAX_OUTPUT_BYTES
    kinds: dict[str, str] = field(default_factory=dict)  # the parameters that are not arrays
    budget_s: float | None = None  # wall time for the whole submission; None: no budget
    probes: tuple[ProbeSpec, ...] = ()
    # Tolerances against the finite-difference estimate (backward problems with finite_difference.py), or None.
    fd_rtol: float | None = None
    fd_atol: float | None = None
    # Earlier problems whose solutions the code may import (``from solved import layer_norm``): their slugs.
    builds_on: tuple[str, ...] = ()
    # Several outputs (a tuple or a dict of named arrays, ``engine/members.py``), or None: one array.
    returns: Returns | None = None
    # A ``params`` parameter's keys and each one's number of axes: param -> {key: ndim}.
    keys: dict[str, dict[str, int]] = field(default_factory=dict)
    # Outputs that are not float64: output -> "int64"; "" names the single output of a one-array function.
    dtypes: dict[str, str] = field(default_factory=dict)
    # How the result page draws a visible test's output beside the expected one ([display] picture in the
    # manifest): "kept_tokens", "heatmap" or "curve" (a 1-D series, a loss per step: a visible test keeps its
    # output even when it passed); "" draws integer outputs as tokens and nothing else. Not graded.
    picture: str = ""
    # Integer arrays that hold bytes ([display] bytes): int_array parameters, and "output" or output names. The
    # problem and result pages show them as text too (b'...'). Not graded.
    shown_as_bytes: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        return f"{self.function}({', '.join(self.params)})"

    def kind(self, param: str) -> str:
        return self.kinds.get(param, ParamKind.ARRAY)

    def output_dtype(self, member: str = "") -> str:
        """The dtype the output (or the named member of several) must have: float64 unless declared."""
        return self.dtypes.get(member, FLOAT64)

    def as_dict(self) -> dict[str, Any]:
        data = {
            key: getattr(self, key)
            for key in (
                "function",
                "params",
                "time_limit_s",
                "memory_mb",
                "rtol",
                "atol",
                "kinds",
                "budget_s",
                "fd_rtol",
                "fd_atol",
            )
        }
        data |= {"probes": [probe.as_dict() for probe in self.probes], "builds_on": list(self.builds_on)}
        if self.returns is not None:
            data["returns"] = self.returns.as_dict()
        if self.keys:
            data["keys"] = {param: dict(keys) for param, keys in self.keys.items()}
        if self.dtypes:
            data["dtypes"] = dict(self.dtypes)
        if self.picture:
            data["picture"] = self.picture
        if self.shown_as_bytes:
            data["bytes"] = list(self.shown_as_bytes)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], max_output_bytes: int = MAX_OUTPUT_BYTES) -> ProblemSpec:
        probes = tuple(ProbeSpec.from_dict(p) for p in data.get("probes", []))
        return cls(
            data["function"],
            list(data["params"]),
            data["time_limit_s"],
            data["memory_mb"],
            data["rtol"],
            data["atol"],
            max_output_bytes,
            dict(data.get("kinds", {})),
            data.get("budget_s"),
            probes,
            data.get("fd_rtol"),
            data.get("fd_atol"),
            tuple(data.get("builds_on", ())),
            Returns.from_dict(data.get("returns")),
            {p: dict(k) for p, k in data.get("keys", {}).items()},
            dict(data.get("dtypes", {})),
            str(data.get("picture", "")),
            tuple(str(name) for name in data.get("bytes", ())),
        )


@dataclass(frozen=True)
class Case:
    name: str
    hidden: bool
    inputs: dict[str, Value]  # parameter -> .npy bytes, or the plain value of a scalar
    expected: bytes  # .npy bytes (packed members for several outputs, engine/members.py); never leaves this process
    known_wrong: tuple[KnownWrong, ...] = ()  # what each known-wrong solution did on this test
    probe: bool = False  # an input for a probe: run, never compared with ``expected`` on its own
    fd_expected: bytes | None = None  # .npy: a finite-difference estimate of the answer, checked as well
    variant: int = 0  # 0: the published seed's case; 1, 2, ...: a secret draw of this hidden case (engine/pool.py)

    def array_inputs(self) -> dict[str, bytes]:
        return array_inputs(self.inputs)

    @cached_property
    def input_hashes(self) -> dict[str, str]:
        """What the sandbox must report of each array input after the call, if the call left it alone: hashed
        once per case, not at every grading (a test's inputs can be megabytes)."""
        return {name: npy_hash(data) for name, data in self.array_inputs().items()}

    def input_bytes(self) -> int:
        return sum(len(v) for v in self.array_inputs().values())


def array_inputs(inputs: dict[str, Value]) -> dict[str, bytes]:
    """Every array among ``inputs`` by name, a ``params`` argument's arrays as ``name["key"]``, as the sandbox
    names them in its input hashes."""
    arrays = {}
    for name, value in inputs.items():
        if isinstance(value, bytes):
            arrays[name] = value
        elif isinstance(value, dict):
            arrays |= {input_name(name, key): data for key, data in value.items()}
    return arrays
