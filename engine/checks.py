"""Where verdicts are decided: one test's returned value against the expected one.

The checks run in a fixed order and the first failure decides the status:
type (a plain ``numpy.ndarray``), dtype (float64, or the int64 a problem declares
for ids and indices, or the int8 of quantised weights), shape (exact, before any comparison that could broadcast),
the NaN/inf pattern, the values within the problem's rtol/atol (integers: exactly),
and finally that the inputs were not modified.

Messages for visible tests show numbers; messages for hidden tests use a fixed
vocabulary: the failed check, the status, a built-in exception's type, the
problem's own limits and parameter names.  Nothing the student's code chose
(a message, printed text, a class or dtype name, a line, an index, a count)
reaches a hidden test's result, because that code has seen the hidden inputs
and could spell them out.
"""

from __future__ import annotations

import ast
import builtins
import copy
import functools
import re
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.arrays import UnreadableArray, read_npy
from engine.events import TestEvent
from engine.members import Mismatch, Returns, is_packed, packed_output, split, unpack
from engine.verdicts import CHECKS, FAILED_CHECK, TestStatus
from sandbox.protocol import Outcome, b64, plain_npy_header

FLOAT64 = np.dtype("<f8")
INT64 = np.dtype("<i8")
PICTURE_MAX_BYTES = 256 * 1024
# Statuses whose visible tests show the student's array itself, not only its shape.
SHOWS_ACTUAL = (TestStatus.WRONG_VALUE, TestStatus.WRONG_DTYPE, TestStatus.INPUT_MUTATED)
# Inputs this large can overflow exp() (exp(710) is inf); below it, NaN has other causes.
LARGE_INPUT = 10.0


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float


@dataclass
class TestResult:
    __test__ = False

    name: str
    hidden: bool
    status: str
    message: str = ""
    time_ms: float = 0.0
    checks: dict[str, str] = field(default_factory=dict)  # check -> passed | failed | skipped
    detail: dict[str, Any] = field(default_factory=dict)
    stdout: str = ""
    traceback: list[dict[str, Any]] = field(default_factory=list)
    # A known misconception this result matches: {"name", "explanation", "see"}.
    misconception: dict[str, Any] = field(default_factory=dict)
    # How it failed, as an opaque digest that float noise does not change (``engine/signatures.py``).
    signature: str = ""
    # Its inputs were one of the pool's secret draws (``engine/pool.py``), which differ from one Submit to
    # the next: mining compares such tests by status, since their signatures differ with the inputs.
    drawn: bool = False

    def as_dict(self) -> dict[str, Any]:
        """What ``dataclasses.asdict`` gives (the caller's own copy), without its reflection over every nested
        value: for the 13 tests of a Submit that cost more than checking them."""
        data = {name: getattr(self, name) for name in RESULT_FIELDS}
        for name in NESTED_FIELDS:
            if data[name]:
                data[name] = copy.deepcopy(data[name])
        return data


RESULT_FIELDS = tuple(item.name for item in fields(TestResult))
NESTED_FIELDS = ("checks", "detail", "traceback", "misconception")


def describe_dtype(dtype: np.dtype[Any]) -> str:
    if dtype.byteorder == ">" or (dtype.byteorder == "=" and not dtype.isnative):
        return f"big-endian {dtype.name}"
    return dtype.name


def _checks_up_to(status: str) -> dict[str, str]:
    failed = FAILED_CHECK.get(status)
    if failed is None:
        return dict.fromkeys(CHECKS, "passed") if status == TestStatus.PASSED else {}
    marks, state = {}, "passed"
    for check in CHECKS:
        if check == failed:
            marks[check], state = "failed", "skipped"
        else:
            marks[check] = state
    return marks


def check_test(
    event: TestEvent,
    *,
    name: str,
    hidden: bool,
    expected: NDArray[Any],
    input_hashes: dict[str, str],
    tolerance: Tolerance,
    max_output_bytes: int,
    time_limit_s: float = 0.0,
    budget_s: float | None = None,
    inputs: dict[str, bytes] | None = None,
    facts: CodeFacts | None = None,
) -> TestResult:
    """``inputs`` (the test's array arguments, .npy) let a NaN message say what the evidence points to, and
    ``facts`` (what the code does, when known) keep it from naming a cause the code has already dealt with."""
    result = TestResult(name=name, hidden=hidden, status=TestStatus.PASSED, time_ms=event.time_ms)
    if not hidden:
        result.stdout = event.stdout
    if event.outcome == Outcome.TIMEOUT:
        result.status, result.message = TestStatus.TIME_LIMIT_EXCEEDED, _timeout_message(event, time_limit_s, budget_s)
        return result
    status, message, detail = _judge(event, hidden, expected, input_hashes, tolerance, max_output_bytes, inputs, facts)
    result.status, result.message = status, message
    result.checks = _checks_up_to(status)
    if event.outcome == Outcome.ERROR and event.error and not hidden:
        result.traceback = event.error.frames  # which line raised is the code's choice: not on hidden tests
    if not hidden:
        result.detail = detail
        if _shows_actual(status, expected):
            keep_output(result, event)
    return result


def passed_as_expected(
    event: TestEvent,
    *,
    name: str,
    hidden: bool,
    expected_npy: bytes,
    input_hashes: dict[str, str],
    max_output_bytes: int,
) -> TestResult | None:
    """The passed result of a test whose returned .npy is the expected output's own bytes, as ``check_test``
    gives it; None for any other result, which ``check_test`` then reads.

    Identical bytes hold the same dtype, shape, NaN/inf pattern and values, so every check up to the inputs'
    passes when the expected dtype is the one a result must have: only the header is read and the inputs'
    hashes compared.  A correct submission's tests mostly end here, without decoding, copying and comparing
    both arrays (on a 100,000-element output that was most of the CPU a Submit's checks took); a failing test
    never does, so its message is the one ``check_test`` words."""
    output = event.output
    if event.outcome != Outcome.RETURNED or output is None or output != expected_npy:
        return None
    header = plain_npy_header(output) if len(output) <= max_output_bytes + 4096 else None
    if header is None:
        return None
    shape, dtype = header[0], np.dtype(header[2])
    if dtype.hasobject or dtype != _wanted(dtype) or _mutation_message(event.input_hashes, input_hashes):
        return None
    result = TestResult(name=name, hidden=hidden, status=TestStatus.PASSED, time_ms=event.time_ms)
    result.checks = _checks_up_to(TestStatus.PASSED)
    if not hidden:
        result.stdout = event.stdout
        result.detail = {
            "expected_shape": list(shape),
            "actual_shape": list(shape),
            "actual_dtype": describe_dtype(dtype),
        }
        if dtype.kind in "iu":  # passed ids are drawn (``_shows_actual``)
            keep_output(result, event)
    return result


def _shows_actual(status: TestStatus, expected: object) -> bool:
    """Whether a visible test keeps the student's array: when it failed on its values, and when integers
    (token ids) passed, since they equal the expected ones exactly and the decoded-tokens picture draws them."""
    passed_ids = status == TestStatus.PASSED and isinstance(expected, np.ndarray) and is_integer(expected)
    return status in SHOWS_ACTUAL or passed_ids


def keep_output(result: TestResult, event: TestEvent) -> None:
    """Store a visible test's returned array for the result page (its picture, "your result"), when small."""
    if not result.hidden and event.output is not None and len(event.output) <= PICTURE_MAX_BYTES:
        result.detail["actual_npy"] = b64(event.output)


def _timeout_message(event: TestEvent, time_limit_s: float, budget_s: float | None) -> str:
    if event.detail == "submission time budget" and budget_s:
        return (
            f"this test ran out of the submission's time budget ({budget_s:g} s for all tests together); "
            "the tests after it were not run"
        )
    given = f" of {time_limit_s:g} s" if time_limit_s else ""
    return f"the function did not return within this test's time limit{given}; the tests after it were not run"


def _judge(
    event: TestEvent,
    hidden: bool,
    expected: NDArray[Any],
    input_hashes: dict[str, str],
    tolerance: Tolerance,
    max_output_bytes: int,
    inputs: dict[str, bytes] | None = None,
    facts: CodeFacts | None = None,
) -> tuple[TestStatus, str, dict[str, Any]]:
    outcome = event.outcome
    if outcome == Outcome.MEMORY:
        return TestStatus.MEMORY_LIMIT_EXCEEDED, "the function used more memory than the limit allows", {}
    if outcome == Outcome.OUTPUT_LIMIT:
        return TestStatus.OUTPUT_LIMIT_EXCEEDED, "the returned array is larger than the output limit", {}
    if outcome == Outcome.CRASHED:
        # The code can choose how it dies (which signal, which exit status): hidden tests do not say.
        died = "died" if hidden else event.detail or "died"
        return TestStatus.RUNTIME_ERROR, f"the process running your code {died}", {}
    if outcome == Outcome.ERROR:
        return _runtime_error(event, hidden)
    if outcome == Outcome.WRONG_TYPE:
        return TestStatus.WRONG_TYPE, _wrong_type_message(event.type_description, hidden), {}
    return _judge_array(event, hidden, expected, input_hashes, tolerance, max_output_bytes, inputs, facts)


def _where(frame: dict[str, Any]) -> str:
    """Where it raised: a line of the submission, or of the student's accepted solution it imported."""
    if frame.get("module"):
        return f" (line {frame['line']} of your accepted {frame['module']}, which this code imports)"
    return f" (line {frame['line']})"


def _runtime_error(event: TestEvent, hidden: bool) -> tuple[TestStatus, str, dict[str, Any]]:
    error = event.error
    assert error is not None  # an ERROR outcome carries its error (engine/events.py)
    if error.type == "MemoryError":
        return TestStatus.MEMORY_LIMIT_EXCEEDED, "MemoryError: the function needed more memory than the limit", {}
    if hidden:
        # The message, a class's name and the line are the code's own choice and could carry the inputs out.
        return TestStatus.RUNTIME_ERROR, hidden_error_message(error.type), {}
    where = _where(error.frames[-1]) if error.frames else ""
    return TestStatus.RUNTIME_ERROR, f"{error.type}: {error.message}{where}", {}


# Exception types a hidden test may name: Python's built-in ones and NumPy's, known to this process.
# A class the submission defines may have any name (``type("S3_196_64", (Exception,), {})``), so it
# is never echoed; a class that borrows a built-in's name says no more than the built-in would.
NAMED_EXCEPTIONS = (
    frozenset(
        name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
    )
    | frozenset(name for name in np.exceptions.__all__ if name[0].isupper())
    | {"LinAlgError"}
)
OWN_EXCEPTION = "an exception of a class your code defined"


def hidden_error_message(type_name: str) -> str:
    """What a hidden test says of an exception: its type if it is built in, never its message or line."""
    raised = type_name if type_name in NAMED_EXCEPTIONS else OWN_EXCEPTION
    return f"your code raised {raised}; on hidden tests the message, the line and printed output are not shown"


# Type names a student can always see; any other name is the student's to choose
# and could spell out hidden data, so hidden tests do not echo it.
COMMON_TYPES = {
    "list",
    "tuple",
    "float",
    "int",
    "str",
    "dict",
    "None",
    "numpy.float64",
    "numpy.float32",
    "numpy.int64",
    "numpy.matrix",
    "numpy.ma.MaskedArray",
}


def _wrong_type_message(description: str, hidden: bool = False) -> str:
    if hidden and description not in COMMON_TYPES:
        description = "an object of another type" if "subclass" not in description else "an ndarray subclass"
    message = f"expected a numpy.ndarray, got {description or 'something else'}"
    if "subclass" in description:
        return message + "; return a plain array (np.asarray(result))"
    if description in ("list", "tuple", "float", "int", "numpy.float64"):
        return message + "; build the result with NumPy so it is an ndarray"
    return message


def _judge_array(
    event: TestEvent,
    hidden: bool,
    expected: NDArray[Any],
    input_hashes: dict[str, str],
    tolerance: Tolerance,
    max_output_bytes: int,
    inputs: dict[str, bytes] | None = None,
    facts: CodeFacts | None = None,
) -> tuple[TestStatus, str, dict[str, Any]]:
    claimed = event.dtype
    if event.output is None:
        if claimed and not claimed.startswith("|O"):
            return TestStatus.WRONG_TYPE, "the result could not be read as an array", {}
        return TestStatus.WRONG_DTYPE, _dtype_message("object", event.shape, expected, hidden), {}
    try:
        actual = read_npy(event.output, max_output_bytes + 4096)
    except UnreadableArray as exc:
        why = "" if hidden else f": {exc}"  # the reason quotes the array's header, which the code wrote
        return TestStatus.WRONG_TYPE, f"the result could not be read as an array{why}", {}
    detail = {
        "expected_shape": list(expected.shape),
        "actual_shape": list(actual.shape),
        "actual_dtype": describe_dtype(actual.dtype),
    }
    if actual.dtype != wanted_dtype(expected):
        return (
            TestStatus.WRONG_DTYPE,
            _dtype_message(describe_dtype(actual.dtype), actual.shape, expected, hidden),
            detail,
        )
    if actual.shape != expected.shape:
        return TestStatus.WRONG_SHAPE, _shape_message(actual.shape, expected.shape, hidden), detail
    if is_integer(expected):
        value_message = _integer_message(actual, expected, hidden, detail)
        return (
            (TestStatus.WRONG_VALUE, value_message, detail)
            if value_message
            else _unchanged(event, input_hashes, detail)
        )
    pattern = _special_value_message(actual, expected, hidden, inputs, detail, facts)
    if pattern:
        return TestStatus.WRONG_VALUE, pattern, detail
    value_message = _value_message(actual, expected, tolerance, hidden, detail)
    if value_message:
        return TestStatus.WRONG_VALUE, value_message, detail
    return _unchanged(event, input_hashes, detail)


def _unchanged(
    event: TestEvent, input_hashes: dict[str, str], detail: dict[str, Any]
) -> tuple[TestStatus, str, dict[str, Any]]:
    mutated = _mutation_message(event.input_hashes, input_hashes)
    if mutated:
        return TestStatus.INPUT_MUTATED, mutated, detail
    return TestStatus.PASSED, "", detail


def wanted_dtype(expected: NDArray[Any]) -> np.dtype[Any]:
    """The dtype a result must have: the expected output's, which the test build checked against the manifest's
    declaration (float64 unless ``[function.returns]`` declares int64 or int8)."""
    return _wanted(expected.dtype)


def _wanted(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return dtype.newbyteorder("<") if dtype.kind in "iu" else FLOAT64


def is_integer(expected: NDArray[Any]) -> bool:
    return expected.dtype.kind in "iu"


def _integer_message(actual: NDArray[Any], expected: NDArray[Any], hidden: bool, detail: dict[str, Any]) -> str:
    """Integers (token ids, indices) are right or wrong: compared exactly, no tolerance."""
    bad = actual != expected
    if not bad.any():
        return ""
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    count, total = int(bad.sum()), int(bad.size)
    detail.update({"mismatches": count, "total": total, "first_mismatch": list(first), "exact": True})
    if hidden:
        where = "every position" if count == total else "some positions"
        return f"integer values differ from the expected ones at {where} (compared exactly)"
    return (
        f"integer values differ at {count} of {total} positions (compared exactly); first mismatch at index "
        f"{first}: expected {int(expected[first])}, got {int(actual[first])}"
    )


def _mutation_message(returned: dict[str, str], sent: dict[str, str]) -> str:
    for name, digest in returned.items():
        if name in sent and digest != sent[name]:
            return (
                f"your function modified its input `{name}` in place; the caller still owns it, "
                "so build and return a new array instead"
            )
    if set(returned) != set(sent):
        return "the judge could not confirm that the inputs were left unchanged"
    return ""


# Dtype names a hidden test may echo; any other (a structured dtype's size, say) is the code's to choose.
NAMED_DTYPES = frozenset(np.dtype(code).name for code in np.typecodes["All"] if code not in "OVSUaMm") | {"object"}


def _dtype_message(got: str, shape: tuple[Any, ...] | None, expected: NDArray[Any], hidden: bool) -> str:
    wanted = f"an {expected.dtype.name}" if is_integer(expected) else "a float64"
    advice = _integer_advice(expected.dtype) if is_integer(expected) else ""
    if hidden:
        named = got.removeprefix("big-endian ") in NAMED_DTYPES
        return f"expected {wanted} array, got {got if named else 'an array of another dtype'}{advice}"
    shape_text = f" of shape {tuple(shape)}" if shape is not None else ""
    return f"expected {wanted} array of shape {expected.shape}, got {got}{shape_text}{advice}"


def _integer_advice(dtype: np.dtype[Any]) -> str:
    """How to give integers the declared dtype: ids computed with float arithmetic come back float64, and
    quantised values rounded with np.round are still floats."""
    if dtype == INT64:
        return "; ids and indices are integers: return them with .astype(np.int64)"
    return f"; the values are {dtype.name} integers: convert them with .astype(np.{dtype.name}) once they fit its range"


def _shape_message(actual: tuple[Any, ...], expected: tuple[Any, ...], hidden: bool) -> str:
    if hidden:
        if len(actual) != len(expected):
            return f"expected a {len(expected)}-dimensional result, got another number of dimensions"
        return "the result has the right number of dimensions but the wrong shape"
    message = f"expected shape {expected}, got {actual}"
    if sorted(actual) == sorted(expected):
        message += " (the same sizes in a different order: check transposes and the concatenation axis)"
    return message


def _special_value_message(
    actual: NDArray[Any],
    expected: NDArray[Any],
    hidden: bool,
    inputs: dict[str, bytes] | None = None,
    detail: dict[str, Any] | None = None,
    facts: CodeFacts | None = None,
) -> str:
    """Where the NaN/inf pattern differs, said as what was expected and what the result holds there
    (a largest error over infinities says nothing: "-inf expected at 3 positions, you have -1e9")."""
    if np.isfinite(actual).all() and np.isfinite(expected).all():
        return ""  # the common case, in two passes over the arrays instead of nine
    for label, test in (("NaN", np.isnan), ("+inf", np.isposinf), ("-inf", np.isneginf)):
        got, want = test(actual), test(expected)
        if np.array_equal(got, want):
            continue
        unexpected = got & ~want
        if unexpected.any():
            message = f"your result has {label} where the expected value is not"
            if not hidden:
                count, values, first = _where_pattern(unexpected, expected)
                where = f"{_positions(count)} where {values} {_are(values)} expected"
                message += f", at {where} (first at index {first})"
                _keep_pattern(detail, label, count, first, f"your result has {label} at {where}")
            if label == "NaN":
                message += _nan_advice(inputs or {}, hidden, facts)
            return message
        if hidden:
            return f"expected {label} where your result has none"
        count, values, first = _where_pattern(want & ~got, actual)
        summary = f"{label} expected at {_positions(count)}, you have {values}"
        _keep_pattern(detail, label, count, first, summary)
        return f"{summary} (first at index {first})"
    return ""


def _positions(count: int) -> str:
    return f"{count} position{'' if count == 1 else 's'}"


def _where_pattern(where: NDArray[Any], other: NDArray[Any]) -> tuple[int, str, tuple[Any, ...]]:
    """How many positions, the values ``other`` holds there (up to three named), and the first index."""
    values = np.unique(other[where])  # NaNs sort last and each counts once
    named = [_number(float(v)) for v in values[:3]]
    if len(values) > 3:
        text = f"{len(values)} different values ({', '.join(named)}, ...)"
    else:
        text = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return int(where.sum()), text, tuple(int(i) for i in np.argwhere(where)[0])


def _are(values: str) -> str:
    return "are" if " and " in values or "different values" in values else "is"


def _keep_pattern(detail: dict[str, Any] | None, label: str, count: int, first: tuple[Any, ...], summary: str) -> None:
    if detail is not None:
        detail["pattern"] = {"label": label, "count": count, "first": list(first), "summary": summary}


def _number(value: float) -> str:
    """A value as a person writes it: -1e9, not -1e+09; nan and inf as NumPy prints them."""
    if np.isnan(value):
        return "NaN"
    if np.isinf(value):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:.6g}"
    return re.sub(r"e([+-])0*(\d)", lambda m: "e" + ("-" if m.group(1) == "-" else "") + m.group(2), text)


def _nan_advice(inputs: dict[str, bytes], hidden: bool = False, facts: CodeFacts | None = None) -> str:
    """Advice only where the inputs point to a cause (large magnitudes: overflow; a -inf mask), the code can
    have that cause (``facts``: overflow needs an exponential; a learning-rate schedule's NaN is 0/0) and does
    not already do what the advice says (it subtracts each row's maximum, over the last axis); when unsure,
    nothing.  On a hidden test without the magnitude, which is the hidden input's."""
    largest, masked = 0.0, []
    for name, data in inputs.items():
        try:
            array = read_npy(data, 1 << 62)
        except UnreadableArray:
            continue
        if array.dtype.kind != "f" or array.size == 0:
            continue
        finite = array[np.isfinite(array)]
        largest = max(largest, float(np.abs(finite).max()) if finite.size else 0.0)
        if np.isneginf(array).any():
            masked.append(name)
    subtracts = facts.max_axes if facts is not None else frozenset()
    if LAST_AXIS in subtracts:
        return ""  # both causes below are what subtracting the row maximum prevents: the NaN comes from elsewhere
    exponentiates = facts is None or facts.exponentiates
    if largest >= LARGE_INPUT and not subtracts and exponentiates:
        reach = "are large" if hidden else f"reach {largest:.3g}"
        return (
            f"; the inputs {reach} in magnitude, so exp() overflows to inf and inf/inf is NaN: "
            "subtract the maximum before exponentiating"
        )
    if masked:
        return (
            f"; `{masked[0]}` holds -inf, and arithmetic on -inf gives NaN (-inf - (-inf), 0 * -inf): add the "
            "mask to the scores, and take the maximum over the last axis, where each row keeps an allowed entry"
        )
    return ""


LAST_AXIS = "-1"
MAXIMUM_CALLS = frozenset({"max", "amax", "nanmax"})
# The exponentials whose overflow the NaN advice names (np.exp, math.exp, np.expm1, np.exp2).
EXPONENTIAL_CALLS = frozenset({"exp", "expm1", "exp2"})


class CodeFacts:
    """What a submission's code does, read from its syntax tree (never run) by trusted code, so advice that
    names a cause can be checked against it first: "subtract the maximum" is wrong for code that does.

    ``max_axes``: the axis of each maximum the code subtracts ("-1"; "none" for the whole array; "other"
    where it is not a constant), also through a name the maximum was assigned to.  ``exponentiates``: it calls
    an exponential, whose overflow on large inputs is the cause the NaN advice names.

    The code is read when advice first asks (a NaN where none was expected): most runs never do, and parsing
    and walking the tree three times cost a graded Submit more than checking all of its tests' values."""

    def __init__(self, code: str | None = None) -> None:
        self.code = code

    @classmethod
    def of(cls, code: str) -> CodeFacts:
        return cls(code)

    @property
    def max_axes(self) -> frozenset[str]:
        return self._read[0]

    @property
    def exponentiates(self) -> bool:
        return self._read[1]

    @functools.cached_property
    def _read(self) -> tuple[frozenset[str], bool]:
        if self.code is None:
            return frozenset(), True
        try:
            tree = ast.parse(self.code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return frozenset(), True
        maxima: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and (axis := _maximum_axis(node.value)) is not None:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        maxima[target.id] = axis
        exponentiates = any(
            isinstance(node, ast.Call) and _called(node) in EXPONENTIAL_CALLS for node in ast.walk(tree)
        )
        axes = set()
        for node in ast.walk(tree):
            subtracted = None
            if isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Sub):
                subtracted = node.right if isinstance(node, ast.BinOp) else node.value
            elif isinstance(node, ast.Call) and _called(node) == "subtract" and len(node.args) >= 2:
                subtracted = node.args[1]
            if subtracted is None:
                continue
            axis = maxima.get(subtracted.id) if isinstance(subtracted, ast.Name) else _maximum_axis(subtracted)
            if axis is not None:
                axes.add(axis)
        return frozenset(axes), exponentiates


def _called(node: ast.Call) -> str:
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _maximum_axis(node: ast.AST) -> str | None:
    """The axis of ``x.max(axis=-1)``, ``np.max(x, -1)`` and the like as text; None if ``node`` is no maximum."""
    if not isinstance(node, ast.Call) or _called(node) not in MAXIMUM_CALLS:
        return None
    axis = next((k.value for k in node.keywords if k.arg == "axis"), None)
    if axis is None:  # positional: x.max(-1), or np.max(x, -1)
        method = isinstance(node.func, ast.Attribute) and not (
            isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "numpy")
        )
        position = 0 if method else 1
        axis = node.args[position] if len(node.args) > position else None
    if axis is None or (isinstance(axis, ast.Constant) and axis.value is None):
        return "none"
    try:
        value = ast.literal_eval(axis)
    except ValueError:
        return "other"
    return str(value) if isinstance(value, int) else "other"


def _distinct(expected: float, actual: float) -> tuple[str, str]:
    """Both numbers with enough significant digits to tell them apart, and one more."""
    for digits in range(6, 17):
        if f"{expected:.{digits}g}" != f"{actual:.{digits}g}":
            return f"{expected:.{digits + 1}g}", f"{actual:.{digits + 1}g}"
    return f"{expected:.17g}", f"{actual:.17g}"


def _mismatch_at(expected: float, actual: float) -> str:
    shown_expected, shown_actual = _distinct(expected, actual)
    error = abs(actual - expected)
    relative = f", rel {error / abs(expected):.1e}" if expected != 0 else ""
    return f"expected {shown_expected}, got {shown_actual} (abs error {error:.1e}{relative})"


def _value_message(
    actual: NDArray[Any], expected: NDArray[Any], tolerance: Tolerance, hidden: bool, detail: dict[str, Any]
) -> str:
    if _all_within(actual, expected, tolerance):
        return ""  # a passing test pays for the comparison only, not for the message's figures
    finite = np.isfinite(expected)
    with np.errstate(all="ignore"):
        error = np.where(finite, np.abs(actual - expected), 0.0)
        allowed = tolerance.atol + tolerance.rtol * np.abs(expected)
        nonzero = finite & (expected != 0)
        relative = np.where(nonzero, error / np.where(nonzero, np.abs(expected), 1.0), 0.0)
    bad = finite & ~(error <= allowed)
    if not bad.any():
        return ""
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    count, total = int(bad.sum()), int(bad.size)
    detail.update(
        {
            "mismatches": count,
            "total": total,
            "first_mismatch": list(first),
            "max_abs_error": float(error.max()),
            "max_rel_error": float(relative.max()),
            "rtol": tolerance.rtol,
            "atol": tolerance.atol,
        }
    )
    if hidden:
        where = "every position" if count == total else "some positions"
        return (
            f"values differ from the expected ones at {where} (beyond rtol={tolerance.rtol:g}, atol={tolerance.atol:g})"
        )
    return (
        f"values differ at {count} of {total} positions (beyond rtol={tolerance.rtol:g}, atol={tolerance.atol:g}); "
        f"max absolute error {error.max():.6g}, max relative error {relative.max():.6g}; "
        f"first mismatch at index {first}: {_mismatch_at(float(expected[first]), float(actual[first]))}"
    )


def _all_within(actual: NDArray[Any], expected: NDArray[Any], tolerance: Tolerance) -> bool:
    """Every value within the tolerance, in place on one scratch array; False also where an expected value
    is not finite (inf - inf is NaN), which ``_value_message`` then looks at in full."""
    with np.errstate(all="ignore"):
        error = np.array(actual, dtype=np.float64)  # the scratch array (a 0-d result stays an array)
        np.subtract(error, expected, out=error)
        np.abs(error, out=error)
        allowed = np.abs(expected) * tolerance.rtol + tolerance.atol
        return bool((error <= allowed).all())


# --------------------------------------------------------------------------
# Several outputs: a tuple or a dict of named arrays (``engine/members.py``).
# The container is checked first (a wrong_type when it is not the declared one),
# then every member in declared order with the checks above; the first failing
# member decides the status and the message starts with its name.
# --------------------------------------------------------------------------


def check_members(
    event: TestEvent,
    *,
    name: str,
    hidden: bool,
    expected: dict[str, NDArray[Any]],
    returns: Returns,
    input_hashes: dict[str, str],
    tolerance: Tolerance,
    max_output_bytes: int,
    time_limit_s: float = 0.0,
    budget_s: float | None = None,
    inputs: dict[str, bytes] | None = None,
) -> tuple[TestResult, dict[str, TestEvent]]:
    """The result of one test of a function with several outputs, and each member's event (none when the
    container itself was wrong or the call did not return)."""
    if event.outcome not in (Outcome.RETURNED, Outcome.WRONG_TYPE):
        first = next(iter(expected.values()))
        return check_test(
            event,
            name=name,
            hidden=hidden,
            expected=first,
            input_hashes=input_hashes,
            tolerance=tolerance,
            max_output_bytes=max_output_bytes,
            time_limit_s=time_limit_s,
            budget_s=budget_s,
            inputs=inputs,
        ), {}
    result = TestResult(name=name, hidden=hidden, status=TestStatus.PASSED, time_ms=event.time_ms)
    if not hidden:
        result.stdout = event.stdout
    try:
        parts = _members(event, returns, hidden)
    except Mismatch as exc:
        result.status, result.message = TestStatus.WRONG_TYPE, str(exc)
        result.checks = _checks_up_to(result.status)
        return result, {}
    failed: list[tuple[str, TestResult]] = []
    for member, part in parts.items():
        checked = check_test(
            part,
            name=name,
            hidden=hidden,
            expected=expected[member],
            input_hashes=part.input_hashes,
            tolerance=tolerance,
            max_output_bytes=max_output_bytes,
            inputs=inputs,
        )
        if checked.status != TestStatus.PASSED:
            failed.append((member, checked))
    if failed:
        member, first_failed = failed[0]
        also = [other for other, _ in failed[1:]]
        result.status = first_failed.status
        result.message = f"{member}: {first_failed.message}" + (f" (also wrong: {', '.join(also)})" if also else "")
        result.detail = first_failed.detail | {"member": member, "failing_members": [m for m, _ in failed]}
    else:
        mutated = _mutation_message(event.input_hashes, input_hashes)
        if mutated:
            result.status, result.message = TestStatus.INPUT_MUTATED, mutated
    result.checks = _checks_up_to(result.status)
    if hidden:
        result.detail = {}
    return result, parts


def _members(event: TestEvent, returns: Returns, hidden: bool) -> dict[str, TestEvent]:
    if event.outcome == Outcome.WRONG_TYPE:
        got = event.type_description or "something else"
        if hidden and got not in COMMON_TYPES:
            got = "an object of another type"
        raise Mismatch(f"expected {returns.describe()}, got {got}")
    if not event.container:
        raise Mismatch(
            f"expected {returns.describe()}, got a single array; return "
            + (", ".join(returns.names) if returns.kind == "tuple" else "a dict of them")
        )
    return split(event, returns, hidden)


def type_signature(event: TestEvent, returns: Returns | None) -> str:
    """What a wrong_type result returned, as diagnosis compares it: the type, or how the tuple or dict was wrong."""
    if returns is None or (event.outcome == Outcome.WRONG_TYPE and not event.container):
        return event.type_description
    try:
        parts = _members(event, returns, hidden=True)
    except Mismatch as exc:
        return str(exc)
    return "; ".join(
        f"{name}: {part.type_description}" for name, part in parts.items() if part.outcome == Outcome.WRONG_TYPE
    )


# --------------------------------------------------------------------------
# Misconception diagnosis: does a failing result match a known-wrong solution's
# result on the same inputs?  Only names and explanations reach the student,
# so this works on hidden tests without revealing their data.
# --------------------------------------------------------------------------

# A run stopped by the time or memory limit returns nothing to compare: it matches a known-wrong solution that
# was stopped the same way on the same test (the test built to separate that mistake by its cost).
BY_STATUS_ALONE = {TestStatus.TIME_LIMIT_EXCEEDED, TestStatus.MEMORY_LIMIT_EXCEEDED}
DIAGNOSABLE = {
    TestStatus.WRONG_TYPE,
    TestStatus.WRONG_DTYPE,
    TestStatus.WRONG_SHAPE,
    TestStatus.WRONG_VALUE,
    TestStatus.INPUT_MUTATED,
    TestStatus.RUNTIME_ERROR,
} | BY_STATUS_ALONE


@dataclass(frozen=True)
class KnownWrong:
    """What one known-wrong solution did on one test (computed in a sandbox when the tests were built)."""

    name: str
    explanation: str
    see: str
    status: str  # the status its result got on this test ("passed" too: where it is not a mistake)
    output: bytes | None = None  # its returned .npy, for array statuses
    signature: str = ""  # "Type: message" for runtime_error, the type description for wrong_type

    def as_misconception(self) -> dict[str, Any]:
        return {"name": self.name, "explanation": self.explanation, "see": self.see}


def error_signature(event: TestEvent) -> str:
    return f"{event.error.type}: {event.error.message}" if event.error else ""


def diagnose(
    event: TestEvent,
    status: str,
    known: tuple[KnownWrong, ...],
    tolerance: Tolerance,
    max_output_bytes: int,
    returns: Returns | None = None,
) -> list[KnownWrong]:
    """Every known-wrong result that this (failing) result reproduces, in the package's order; with several
    outputs, those whose every member matches."""
    if status not in DIAGNOSABLE:
        return []
    if status in BY_STATUS_ALONE:
        return [candidate for candidate in known if candidate.status == status]
    if returns is not None and status != TestStatus.RUNTIME_ERROR:
        return _diagnose_members(event, status, known, tolerance, max_output_bytes, returns)
    actual, found = None, []
    for candidate in known:
        if candidate.status != status:
            continue
        if status == TestStatus.RUNTIME_ERROR:
            if event.error is not None and error_signature(event) == candidate.signature:
                found.append(candidate)
            continue
        if status == TestStatus.WRONG_TYPE:
            if event.output is None and event.type_description == candidate.signature:
                found.append(candidate)
            continue
        if actual is None:
            try:
                actual = read_npy(event.output or b"", max_output_bytes + 4096)
            except UnreadableArray:
                return found
        if candidate.output is not None and same_result(actual, read_npy(candidate.output, 1 << 62), tolerance):
            found.append(candidate)
    return found


def _diagnose_members(
    event: TestEvent,
    status: str,
    known: tuple[KnownWrong, ...],
    tolerance: Tolerance,
    max_output_bytes: int,
    returns: Returns,
) -> list[KnownWrong]:
    """All of them, not the first: a mistake left out here would count as contradicted by this test."""
    candidates = [c for c in known if c.status == status]
    if status == TestStatus.WRONG_TYPE:
        signature = type_signature(event, returns)
        return [c for c in candidates if c.signature == signature]
    packed = packed_output(event, returns, max_output_bytes + 4096)
    if packed is None or not candidates:
        return []
    actual = {name: read_npy(data, 1 << 62) for name, data in unpack(packed).items()}
    found = []
    for candidate in candidates:
        if candidate.output is None or not is_packed(candidate.output):
            continue
        theirs = {name: read_npy(data, 1 << 62) for name, data in unpack(candidate.output).items()}
        if theirs.keys() == actual.keys() and all(same_result(actual[n], theirs[n], tolerance) for n in actual):
            found.append(candidate)
    return found


def same_result(actual: NDArray[Any], other: NDArray[Any], tolerance: Tolerance) -> bool:
    """Same dtype and shape, the same NaN/inf pattern, and values within the problem's tolerance."""
    if actual.dtype != other.dtype or actual.shape != other.shape:
        return False
    if actual.dtype.kind not in "fc":
        return bool(np.array_equal(actual, other))
    for test in (np.isnan, np.isposinf, np.isneginf):
        if not np.array_equal(test(actual), test(other)):
            return False
    finite = np.isfinite(other)
    with np.errstate(all="ignore"):
        close = np.abs(actual - other) <= tolerance.atol + tolerance.rtol * np.abs(other)
    return bool(np.all(close | ~finite))


def finite_difference_disagreement(
    actual: NDArray[Any], estimate: NDArray[Any], tolerance: Tolerance, hidden: bool
) -> str | None:
    """Where a gradient disagrees with the finite-difference estimate of the forward, or None."""
    if actual.shape != estimate.shape:
        return None  # the shape check already says what is wrong
    with np.errstate(all="ignore"):
        far = ~(np.abs(actual - estimate) <= tolerance.atol + tolerance.rtol * np.abs(estimate))
    if not far.any():
        return None
    beyond = f"beyond rtol={tolerance.rtol:g}, atol={tolerance.atol:g}"
    if hidden:  # where it disagrees is an index the code's output chose
        return f"your gradient disagrees with a finite-difference estimate of the forward ({beyond})"
    index = tuple(int(i) for i in np.argwhere(far)[0])
    return (
        f"your gradient disagrees with a finite-difference estimate of the forward at index {index}"
        f" ({int(far.sum())} of {far.size} entries {beyond}): the estimate is {estimate[index]:.8g}, "
        f"yours is {actual[index]:.8g}"
    )
