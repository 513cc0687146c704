"""A student's own inputs for a Run: NumPy literals parsed and checked here, the expected output from the reference.

The literals are parsed without ``eval``: ``ast.parse`` gives a syntax tree, and only number constants,
signs, nested lists and tuples, ``nan``/``inf`` (also as ``np.nan``, ``np.inf``) and one ``np.array(...)``
wrapper around them are accepted.  What a parameter may hold is what its kind says (``ProblemSpec.kinds``)
and what the problem's first visible example shows (``Shapes``): the same number of axes, and NaN or
infinity only where the example has them.  The reference solution that computes the expected output runs
in a sandbox like the student's code (``expected_output``); this module never runs either.
"""

from __future__ import annotations

import ast
import io
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.arrays import read_npy, to_npy
from engine.grading import job_of
from engine.spec import BadArgument, ParamKind, ProblemSpec, Value, check_scalar
from engine.testset import ARRAY_KINDS, GeneratedCase, ReferenceFailed, _reference_output
from sandbox.backends.base import Sandbox, SandboxError
from sandbox.protocol import MAX_OUTPUT_BYTES, Outcome

MAX_LITERAL_CHARS = 20_000  # per parameter
MAX_ELEMENTS = 4_096  # per parameter
MAX_TOTAL_ELEMENTS = 16_384  # all parameters together
MAX_NDIM = 6
CASE_NAME = "your_input"
WHERE = "reference"
WRAPPERS = ("np.array", "numpy.array", "np.asarray", "numpy.asarray")
NON_FINITE = {"nan": math.nan, "inf": math.inf}


class BadLiteral(ValueError):
    """One parameter's text is not an acceptable value; the message says why, for the student."""


class BadInputs(ValueError):
    """Some parameters' texts were refused: parameter -> message ("" for a problem with the whole form)."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{name}: {message}" if name else message for name, message in errors.items()))
        self.errors = errors


@dataclass(frozen=True)
class Expectation:
    """What the first visible example shows of one parameter: the number of axes, and whether NaN or inf appear."""

    ndim: int | None  # None for a scalar parameter
    non_finite: bool = False

    @classmethod
    def of(cls, value: object) -> Expectation:
        if isinstance(value, np.ndarray):
            return cls(value.ndim, bool(value.size) and not bool(np.isfinite(value).all()))
        return cls(None, isinstance(value, float) and not math.isfinite(value))


def expectations(example: dict[str, object]) -> dict[str, Expectation]:
    return {name: Expectation.of(value) for name, value in example.items()}


# --- Parsing one literal --------------------------------------------------------------------------------------


def parse_literal(text: str) -> object:
    """The Python value of ``text``: a number, True/False, or nested lists of numbers. BadLiteral otherwise."""
    if len(text) > MAX_LITERAL_CHARS:
        raise BadLiteral(f"is {len(text):,} characters long; the limit is {MAX_LITERAL_CHARS:,}")
    source = text.strip()
    if not source:
        raise BadLiteral("is empty")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        where = f" at character {exc.offset}" if exc.offset else ""
        raise BadLiteral(f"is not a valid literal{where}: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise BadLiteral("is nested too deeply to read") from None
    counter = [0]
    try:
        return _value(_unwrap(tree.body), counter, 0)
    except RecursionError:
        raise BadLiteral("is nested too deeply to read") from None


def _unwrap(node: ast.expr) -> ast.expr:
    """``np.array([...])`` -> ``[...]``; any other call is refused."""
    if not isinstance(node, ast.Call):
        return node
    name = ast.unparse(node.func)
    if name not in WRAPPERS:
        raise BadLiteral(f"calls {name}(...); write the numbers as a list, optionally inside np.array(...)")
    if len(node.args) != 1 or node.keywords:
        raise BadLiteral(f"{name}(...) must hold exactly one list and nothing else (no dtype=)")
    return node.args[0]


def _value(node: ast.expr, counter: list[int], depth: int) -> object:
    if isinstance(node, ast.List | ast.Tuple):
        if depth >= MAX_NDIM:
            raise BadLiteral(f"has more than {MAX_NDIM} levels of brackets")
        return [_value(item, counter, depth + 1) for item in node.elts]
    counter[0] += 1
    if counter[0] > MAX_ELEMENTS:
        raise BadLiteral(f"has more than {MAX_ELEMENTS:,} numbers; the limit is {MAX_ELEMENTS:,} per input")
    return _number(node)


def _number(node: ast.expr) -> int | float | bool:
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        node = node.operand
        if isinstance(node, ast.Constant) and type(node.value) is bool:
            raise BadLiteral(f"has a sign before {node.value}")
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and type(node.value) in (int, float, bool)
    ):
        value = node.value
        if type(value) is int and abs(value) > 2**53:
            raise BadLiteral(f"has the integer {value}, too large to be exact as a float")
        return value if type(value) is bool else sign * value
    name = ast.unparse(node).removeprefix("np.").removeprefix("numpy.")
    if name in NON_FINITE:
        return sign * NON_FINITE[name]
    raise BadLiteral(f"has {ast.unparse(node)[:40]!r}, which is not a number")


# --- Checking a value against its parameter -------------------------------------------------------------------


def check_value(kind: str, value: object, expected: Expectation | None) -> Value:
    """The parsed ``value`` as the sandbox receives it (.npy bytes, or a scalar), or BadLiteral."""
    if kind not in ARRAY_KINDS:
        if isinstance(value, list):
            raise BadLiteral(f"must be a single {_scalar_name(kind)}, not a list")
        try:
            scalar = check_scalar(kind, value)
        except BadArgument as exc:
            raise BadLiteral(str(exc)) from None
        if isinstance(scalar, float) and not math.isfinite(scalar) and not (expected and expected.non_finite):
            raise BadLiteral(f"must be a finite number, got {scalar}")
        return scalar
    if kind == ParamKind.INT_ARRAY:
        array = _int_array(value)
    elif kind == ParamKind.INT8_ARRAY:
        array = _int8_array(value)
    else:
        array = _array(value)
    if expected is not None and expected.ndim is not None and array.ndim != expected.ndim:
        raise BadLiteral(
            f"must have {expected.ndim} {'axis' if expected.ndim == 1 else 'axes'} "
            f"(like the example), got shape {array.shape} with {array.ndim}"
        )
    if array.size and not np.isfinite(array).all() and not (expected and expected.non_finite):
        raise BadLiteral("must be finite: it holds NaN or infinity, which this input never has in the examples")
    return to_npy(array)


def _scalar_name(kind: str) -> str:
    names: dict[str, str] = {ParamKind.INT: "integer", ParamKind.BOOL: "True or False"}
    return names.get(kind, "number")


def _array(value: object) -> NDArray[Any]:
    if not isinstance(value, list):
        raise BadLiteral(f"must be an array (a list of numbers in brackets), got the single value {value!r}")
    if _has_bool(value):
        raise BadLiteral("must hold numbers, not True or False")
    try:
        array = np.array(value, dtype=np.float64)
    except ValueError:
        raise BadLiteral("is ragged: rows at the same depth must have the same length") from None
    return np.ascontiguousarray(array)


def _int_array(value: object) -> NDArray[Any]:
    """An int_array parameter's literal: whole numbers only (3, not 3.0), each within int64."""
    array = _array(value)
    if not _all_ints(value):
        raise BadLiteral("must hold whole numbers (token ids, indices), written without a decimal point")
    if array.size and np.abs(array).max() >= 2**53:
        raise BadLiteral("has an integer too large for this input")
    return np.ascontiguousarray(np.array(value, dtype=np.int64))


def _int8_array(value: object) -> NDArray[Any]:
    """An int8_array parameter's literal (quantised weights): whole numbers from -128 to 127."""
    array = _array(value)
    if not _all_ints(value):
        raise BadLiteral("must hold whole numbers (quantised weights), written without a decimal point")
    if array.size and (array.min() < -128 or array.max() > 127):
        raise BadLiteral("must hold int8 values, from -128 to 127")
    return np.ascontiguousarray(np.array(value, dtype=np.int8))


def _all_ints(value: object) -> bool:
    if isinstance(value, list):
        return all(_all_ints(item) for item in value)
    return type(value) is int


def _has_bool(value: object) -> bool:
    if isinstance(value, list):
        return any(_has_bool(item) for item in value)
    return type(value) is bool


def validate_inputs(
    spec: ProblemSpec, texts: dict[str, str], example: dict[str, Expectation] | None = None
) -> dict[str, Value]:
    """Every parameter's literal parsed and checked: parameter -> value as the sandbox receives it.

    BadInputs names each parameter that was refused (unknown, missing, malformed, of the wrong kind or number
    of axes, non-finite, too large); an optional array left empty is left out, so its default applies.
    """
    errors: dict[str, str] = {}
    for name in texts:
        if name not in spec.params:
            errors[name] = f"is not a parameter of {spec.signature}"
    inputs: dict[str, Value] = {}
    total = 0
    for name in spec.params:
        kind = spec.kind(name)
        text = texts.get(name)
        if text is None or not text.strip():
            if kind != ParamKind.OPTIONAL_ARRAY:
                errors[name] = "is missing: every parameter needs a value" if text is None else "is empty"
            continue
        if kind == ParamKind.PARAMS:
            errors[name] = "is a dict of weights, which custom input does not take; the examples show it"
            continue
        try:
            inputs[name] = check_value(kind, parse_literal(text), (example or {}).get(name))
        except BadLiteral as exc:
            errors[name] = str(exc)
            continue
        total += _elements(inputs[name])
    if total > MAX_TOTAL_ELEMENTS and not errors:
        errors[""] = f"the inputs hold {total:,} numbers together; the limit is {MAX_TOTAL_ELEMENTS:,}"
    if errors:
        raise BadInputs(errors)
    return inputs


def _elements(value: Value) -> int:
    if not isinstance(value, bytes):
        return 1
    return int(read_npy(value, len(value)).size)


# --- Literals for the form ------------------------------------------------------------------------------------


def literal_of(value: object) -> str:
    """``value`` (an example's input) as text the parser reads back: nested lists, floats in short form."""
    if isinstance(value, np.ndarray | np.generic):
        return _nested(value.tolist())
    return _nested(value)


def _nested(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_nested(item) for item in value) + "]"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else _short(value)
    return repr(value)


def _short(value: float) -> str:
    """Shortest text that round-trips, up to 8 significant digits (a random example's 17 digits say nothing)."""
    short = f"{value:.8g}"
    return short if any(c in short for c in ".en") else short + ".0"


# --- The expected output ----------------------------------------------------------------------------------------

INVALID_INPUT = "this input is not valid for this problem"


class InvalidInput(ReferenceFailed):
    """The reference could not compute an answer for the student's input: the input's fault, not the problem's.
    The message says why in terms of the input, never the reference's own error, line or code."""


def expected_output(
    reference: str,
    spec: ProblemSpec,
    inputs: dict[str, Value],
    sandbox: Sandbox,
    solved: dict[str, str] | None = None,
    max_output_bytes: int = MAX_OUTPUT_BYTES,
    example: dict[str, object] | None = None,
) -> bytes:
    """The reference solution's output on ``inputs``, run in ``sandbox``: .npy bytes, checked as the test-set
    builder checks them.  InvalidInput when the reference raised or ran out of a limit on them (the shapes
    compared with the first example's, ``example``); ReferenceFailed when the reference itself is at fault."""
    case = GeneratedCase(CASE_NAME, False, inputs)
    events = sandbox.run(job_of(reference, spec, [case], solved)).events
    tests = [event for event in events if event.get("event") == "test"]
    if not tests:
        raise ReferenceFailed("the reference solution did not run: it failed while loading")
    if len(tests) != 1:
        raise SandboxError(f"sandbox reported {len(tests)} results for one custom input")
    outcome = tests[0].get("outcome")
    if outcome == Outcome.ERROR:
        raise InvalidInput(
            f"{INVALID_INPUT}: the reference cannot compute an answer for it; "
            f"check that the shapes fit together ({_shapes(inputs, example or {})})"
        )
    if outcome in (Outcome.TIMEOUT, Outcome.MEMORY, Outcome.OUTPUT_LIMIT):
        raise InvalidInput(
            f"{INVALID_INPUT}: the reference cannot compute an answer for it within the "
            "problem's limits; try a smaller input"
        )
    try:
        return _reference_output(tests[0], case, WHERE, max_output_bytes, spec.returns, spec.dtypes)[0]
    except ReferenceFailed as exc:  # "<where>: raised X on <case>: ..." -> a sentence about the student's input
        message = str(exc).removeprefix(f"{WHERE}: ").replace(f" on {CASE_NAME}", " on your input")
        raise ReferenceFailed(f"the reference solution {message}", exc.check) from None


def _shapes(inputs: dict[str, Value], example: dict[str, object]) -> str:
    """ "yours: patches (1, 2, 2), cls_token (1, 1, 3); the example's: patches (1, 4, 3), cls_token (1, 1, 3)"."""
    yours, theirs = [], []
    for name, value in inputs.items():
        if isinstance(value, bytes):
            yours.append(f"{name} {np.load(io.BytesIO(value), allow_pickle=False).shape}")
            if isinstance(shown := example.get(name), np.ndarray):
                theirs.append(f"{name} {shown.shape}")
        else:
            yours.append(f"{name} = {value!r}")
            if name in example:
                theirs.append(f"{name} = {example[name]!r}")
    return f"yours: {', '.join(yours)}" + (f"; the example's: {', '.join(theirs)}" if theirs else "")
