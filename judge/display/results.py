"""How a graded submission is shown: per-test rows, arrays, difference pictures.

Only visible tests ever bring data to a student's page: their inputs and expected
output from the test set, and the student's own output for a wrong value.
Hidden tests name the check that failed and nothing more: no time, traceback or
printed output of their own (the engine stores none; rows graded before it
stopped are cleaned here too), and the submission's total time is rounded.  The student's
output is stored as base64 ``.npy`` bytes that their code produced, so it is
parsed with the same defensive reader the grader uses.

A course's staff reading a student's work (``staff=True``, the grading desk) also see each hidden test's
inputs, expected output and the figures its check stored (how many positions differ, the largest error).
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from dataclasses import dataclass, field

import numpy as np
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from engine import members
from engine.arrays import UnreadableArray, read_npy
from engine.checks import hidden_error_message
from engine.custom_input import CASE_NAME as CUSTOM_CASE
from engine.custom_input import BadInputs, validate_inputs
from engine.verdicts import CHECK_LABELS, CHECKS, TestStatus, Verdict
from judge.display.curves import loss_curves
from judge.display.pictures import output_picture
from judge.display.token_picture import drawable, prompt_length, tokens_picture
from judge.problems.queries import graded_case_data, problem_spec, visible_case_data
from judge.submissions.models import Submission

MAX_ACTUAL_BYTES = 512 * 1024
MAX_PANELS = 8  # leading indices drawn for a 3-D array
MAX_GRID = 48  # cells per side of a panel; larger arrays are pooled by block maximum


@dataclass
class ShownArray:
    label: str
    shape: tuple
    dtype: str
    text: str
    scalar: bool = False  # a plain int, float or bool parameter, not an array
    as_text: str = ""  # an array of bytes ([display] bytes) written as Python bytes literals, one per row


@dataclass
class TestRow:
    name: str
    hidden: bool
    status: str
    status_label: str
    message: str
    time_ms: float
    checks: list[tuple[str, str]]  # (label, passed | failed | skipped)
    traceback: list[dict] = field(default_factory=list)
    stdout: str = ""
    inputs: list[ShownArray] = field(default_factory=list)
    expected: ShownArray | None = None
    actual: ShownArray | None = None
    picture: SafeString | None = None
    tokens: SafeString | None = None  # the decoded-tokens picture (judge/display/token_picture.py)
    # The output drawn beside the expected one (``pictures.py``), for a visible test that did not pass.
    view: SafeString | None = None
    view_title: str = ""
    curve: SafeString | None = None  # a series-valued answer (``picture = "curve"``): yours and the reference's
    detail: dict = field(default_factory=dict)
    member: str = ""  # for several outputs: the named output shown (the first that failed)
    misconception: str = ""  # the name of the known mistake it reproduces, if any
    # The later tests that failed the same way, folded into this row (``results.grouped``).
    same_on: list[str] = field(default_factory=list)
    staff_view: bool = False  # a hidden test shown in full to the course's staff

    @property
    def passed(self) -> bool:
        return self.status == TestStatus.PASSED


def format_array(label: str, array: np.ndarray | float | bool, as_bytes: bool = False) -> ShownArray:
    """An array as the page prints it; ``as_bytes`` (the problem's ``[display] bytes`` names it) adds the text
    the bytes spell, when they are bytes."""
    if not isinstance(array, np.ndarray):  # a scalar parameter: shown as the student's code receives it
        return ShownArray(label, (), type(array).__name__, repr(array), scalar=True)
    with np.printoptions(precision=6, suppress=True, threshold=120, edgeitems=3, linewidth=96):
        text = np.array2string(array, separator=", ")
    return ShownArray(label, tuple(array.shape), str(array.dtype), text, as_text=bytes_text(array) if as_bytes else "")


MAX_TEXT_BYTES = 2000  # of one row written as text; longer rows end in "..."


def bytes_text(array: np.ndarray) -> str:
    """Each row of an integer array of values 0-255 as a Python bytes literal (``b'caf\\xc3\\xa9'``: printable
    ASCII as itself, anything else escaped), or "" when the array does not hold bytes."""
    if array.dtype.kind not in "iu" or array.ndim > 2 or (array.size and (array.min() < 0 or array.max() > 255)):
        return ""
    rows = array.reshape(1, -1) if array.ndim < 2 else array
    lines = [
        repr(bytes(row[:MAX_TEXT_BYTES].astype(np.uint8).tolist())) + ("..." if row.size > MAX_TEXT_BYTES else "")
        for row in rows[:MAX_PANELS]
    ]
    return "\n".join(lines) + ("\n..." if len(rows) > MAX_PANELS else "")


def expected_arrays(
    expected: np.ndarray | dict[str, np.ndarray], as_bytes: frozenset[str] = frozenset()
) -> list[ShownArray]:
    """The expected output as the page shows it: one array, or each named output of a tuple or dict; the outputs
    named in ``as_bytes`` ("output" for one array) also as text."""
    if isinstance(expected, dict):
        return [format_array(name, array, name in as_bytes) for name, array in expected.items()]
    return [format_array("expected", expected, "output" in as_bytes)]


def custom_case_data(submission: Submission) -> dict[str, tuple[dict, np.ndarray | dict[str, np.ndarray]]]:
    """A custom Run's one case: the student's inputs (parsed again from their literals) and the reference's output."""
    if submission.custom_expected is None:
        return {}
    try:
        inputs = validate_inputs(problem_spec(submission.problem), submission.custom_inputs or {})
        stored = bytes(submission.custom_expected)
        expected = members.load(stored) if members.is_packed(stored) else read_npy(stored, MAX_ACTUAL_BYTES * 8)
    except (BadInputs, UnreadableArray):
        return {}
    arrays = {
        name: np.load(io.BytesIO(v), allow_pickle=False) if isinstance(v, bytes) else v for name, v in inputs.items()
    }
    return {CUSTOM_CASE: (arrays, expected)}


def decode_actual(detail: dict) -> np.ndarray | None:
    encoded = detail.get("actual_npy")
    if not isinstance(encoded, str):
        return None
    try:
        return read_npy(base64.b64decode(encoded, validate=True), MAX_ACTUAL_BYTES)
    except (UnreadableArray, binascii.Error, ValueError):
        return None


def result_rows(submission: Submission, staff: bool = False) -> list[TestRow]:
    """The stored tests as the page shows them; ``staff`` only for a course's staff reading a student's work."""
    if not submission.results:
        return []
    if submission.is_custom:
        cases = custom_case_data(submission)
    elif staff:
        cases = graded_case_data(submission.test_set_id, submission.draw)
    elif any(not t.get("hidden", True) for t in submission.results):
        cases = visible_case_data(submission.test_set_id)
    else:
        cases = {}
    spec = submission.problem.spec or {}
    labels, picture, as_bytes = check_labels(spec), str(spec.get("picture") or ""), shown_as_bytes(spec)
    return [
        shown_row(test, cases, labels, picture, as_bytes, staff)
        for test in submission.results
        if isinstance(test, dict)
    ]


def shown_as_bytes(spec: dict) -> frozenset[str]:
    """The arrays a problem's pages also show as text (``ProblemSpec.shown_as_bytes``)."""
    return frozenset(str(name) for name in spec.get("bytes") or ())


def check_labels(spec: dict) -> dict[str, str]:
    """The checks' chips for a problem: the dtype chip names the dtype its outputs must have (float64, int64, or
    "dtypes" when its several outputs differ)."""
    declared = spec.get("dtypes") or {}
    dtypes = set(declared.values())
    names = (spec.get("returns") or {}).get("names") or [""]
    if dtypes and len(declared) == len(names):
        dtypes.discard("float64")
    elif dtypes:
        dtypes.add("float64")
    if not dtypes:
        return CHECK_LABELS
    return CHECK_LABELS | {"dtype": dtypes.pop() if len(dtypes) == 1 else "dtypes"}


def shown_row(
    test: dict,
    cases: dict,
    labels: dict[str, str] = CHECK_LABELS,
    picture: str = "",
    as_bytes: frozenset[str] = frozenset(),
    staff: bool = False,
) -> TestRow:
    """One stored test as the page shows it; ``cases`` holds the visible tests' inputs and expected output (and
    the hidden ones' for ``staff``), ``picture`` is how the problem draws an output (``ProblemSpec.picture``) and
    ``as_bytes`` names the inputs and outputs that hold bytes ("output" for a one-array function's)."""
    status = str(test.get("status", ""))
    marks = test.get("checks") or {}
    row = TestRow(
        name=str(test.get("name", "")),
        hidden=bool(test.get("hidden", True)),
        status=status,
        status_label=_label(TestStatus, status),
        message=str(test.get("message", "")),
        time_ms=float(test.get("time_ms") or 0),
        checks=[(labels[c], marks.get(c, "skipped")) for c in CHECKS],
        traceback=list(test.get("traceback") or []),
        misconception=str((test.get("misconception") or {}).get("name", ""))
        if isinstance(test.get("misconception"), dict)
        else "",
    )
    if row.hidden:
        row.time_ms, row.traceback, row.message = 0.0, [], _hidden_message(row.message)
        if not staff:
            return row
        row.staff_view = True
    row.stdout, row.detail = str(test.get("stdout") or ""), dict(test.get("detail") or {})
    if row.name in cases:
        inputs, expected = cases[row.name]
        row.inputs = [format_array(name, value, name in as_bytes) for name, value in inputs.items()]
        output_bytes = "output" in as_bytes
        row.expected = format_array("expected", expected, output_bytes) if not isinstance(expected, dict) else None
        if isinstance(expected, dict):  # several outputs: the failing one (``member``), else the first
            failing = row.detail.get("member")
            member = failing if isinstance(failing, str) and failing in expected else next(iter(expected))
            expected = expected[member]
            output_bytes = member in as_bytes
            row.expected = format_array(f"expected {member}", expected, output_bytes)
            row.member = member
        actual = decode_actual(row.detail)
        if actual is not None:
            row.actual = format_array(f"your {row.member}" if row.member else "your result", actual, output_bytes)
            if status == TestStatus.WRONG_VALUE and actual.shape == expected.shape:
                first = row.detail.get("first_mismatch") or (row.detail.get("pattern") or {}).get("first")
                row.picture = difference_picture(actual, expected, first)
            prompt = prompt_length(inputs, expected)
            if prompt is not None and drawable(actual, expected):
                row.tokens = tokens_picture(actual, expected, prompt)
            if picture == "curve":
                row.curve = loss_curves(actual, expected)
        # A decoded sequence has its own picture (token_picture.py), which replaces the generic token strip.
        if not row.passed and row.tokens is None:
            view = output_picture(picture, inputs, expected, actual, output_bytes)
            if view is not None:
                row.view_title, row.view = view
    return row


# How a hidden runtime error read before the fixed vocabulary: the raised class's name, which the code chose.
OLD_HIDDEN_ERROR = re.compile(r"^(\S+?)(?: \(line \d+[^)]*\))?; messages of hidden tests are not shown$")


def _hidden_message(message: str) -> str:
    old = OLD_HIDDEN_ERROR.match(message)
    return hidden_error_message(old.group(1)) if old else message


def grading_time(submission: Submission) -> str:
    """The total time, to the second when hidden tests ran: the code could stretch it by a hidden value."""
    if submission.grading_ms is None:
        return ""
    if not any(isinstance(t, dict) and t.get("hidden") for t in submission.results or []):
        return f"{submission.grading_ms:.0f} ms"
    seconds = round(submission.grading_ms / 1000)
    return "under 1 s" if seconds < 1 else f"about {seconds} s"


def _label(choices, value: str) -> str:
    try:
        return choices(value).label
    except ValueError:
        return value.replace("_", " ")


def verdict_label(value: str) -> str:
    return _label(Verdict, value)


def error_line(submission: Submission) -> int | None:
    """The editor line to point at: where the first failing test raised, or the syntax error."""
    for test in submission.results or []:
        # A hidden test's line would be the code's choice; rows stored before the vocabulary may hold one.
        frames = test.get("traceback") if isinstance(test, dict) and not test.get("hidden", True) else None
        if frames:
            # Frames of an imported accepted solution (``module``) are not lines of this editor.
            own = [f for f in frames if isinstance(f, dict) and not f.get("module") and isinstance(f.get("line"), int)]
            if own:
                return own[-1]["line"]
    if submission.verdict in (Verdict.COMPILE_ERROR, Verdict.RUNTIME_ERROR):
        match = re.search(r"\bline (\d+)", submission.message)
        return int(match.group(1)) if match else None
    return None


# --- The difference picture ---------------------------------------------------


def _panels(error: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """View any array as a stack of 2-D panels, labelled by their leading index."""
    if error.ndim == 0:
        return error.reshape(1, 1, 1), [""]
    if error.ndim == 1:
        return error.reshape(1, 1, -1), [""]
    if error.ndim == 2:
        return error[np.newaxis], [""]
    leading = error.shape[:-2]
    stacked = error.reshape(-1, *error.shape[-2:])
    labels = ["[" + ", ".join(str(i) for i in np.unravel_index(k, leading)) + ", :, :]" for k in range(len(stacked))]
    return stacked, labels


def _pool(panel: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Shrink a panel to at most MAX_GRID cells a side, keeping each block's largest error."""
    rows, cols = panel.shape
    by_r, by_c = -(-rows // MAX_GRID), -(-cols // MAX_GRID)
    if by_r == 1 and by_c == 1:
        return panel, 1, 1
    padded = np.full((-(-rows // by_r) * by_r, -(-cols // by_c) * by_c), 0.0)
    padded[:rows, :cols] = panel
    pooled = padded.reshape(padded.shape[0] // by_r, by_r, padded.shape[1] // by_c, by_c).max(axis=(1, 3))
    return pooled, by_r, by_c


def _colour(fraction: float) -> str:
    """White for no error through orange to dark red for the largest error."""
    stops = ((255, 255, 255), (253, 174, 97), (215, 48, 39), (120, 0, 20))
    position = min(max(fraction, 0.0), 1.0) * (len(stops) - 1)
    low = min(int(position), len(stops) - 2)
    t = position - low
    rgb = [round(a + (b - a) * t) for a, b in zip(stops[low], stops[low + 1])]
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def difference_picture(actual: np.ndarray, expected: np.ndarray, first_mismatch) -> SafeString:
    """An inline SVG heatmap of |actual - expected|, one panel per leading index."""
    with np.errstate(all="ignore"):
        error = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
    # The same infinity, or NaN on both sides, is no difference (inf - inf is NaN); any other NaN or
    # infinity on one side only is drawn apart from the finite scale, which it would otherwise flatten.
    same = (actual == expected) | (np.isnan(actual) & np.isnan(expected))
    error = np.where(same, 0.0, np.where(np.isfinite(error), error, np.inf))
    finite_max = float(error[np.isfinite(error)].max()) if np.isfinite(error).any() else 0.0
    scale = finite_max or 1.0
    panels, labels = _panels(error)
    first = tuple(first_mismatch) if isinstance(first_mismatch, list | tuple) else None
    first_panel, first_cell = _locate(first, error.shape)
    parts, x_offset, height = [], 0, 0
    for k, (panel, label) in enumerate(zip(panels[:MAX_PANELS], labels)):
        svg, width, panel_height = _panel_svg(panel, label, scale, x_offset, first_cell if k == first_panel else None)
        parts.append(svg)
        x_offset += width + 16
        height = max(height, panel_height)
    more = len(panels) - MAX_PANELS
    note = f'<p class="more-panels">…and {more} more panel{"s" * (more > 1)} not drawn.</p>' if more > 0 else ""
    legend = _legend(finite_max, bool(np.isinf(error).any()))
    svg = (
        f'<svg class="heatmap" role="img" xmlns="http://www.w3.org/2000/svg" width="{max(x_offset - 16, 1)}" '
        f'height="{height}" viewBox="0 0 {max(x_offset - 16, 1)} {height}">'
        f"<title>|actual − expected| for each position; the outlined cell is the first mismatch</title>"
        + "".join(parts)
        + "</svg>"
    )
    return mark_safe(f'<div class="difference-picture">{svg}{legend}{note}</div>')  # noqa: S308  (numbers and fixed text only)


def _locate(first: tuple | None, shape: tuple) -> tuple[int | None, tuple[int, int] | None]:
    if first is None or len(first) != len(shape):
        return None, None
    if len(shape) == 0:
        return 0, (0, 0)
    if len(shape) == 1:
        return 0, (0, first[0])
    if len(shape) == 2:
        return 0, (first[0], first[1])
    return int(np.ravel_multi_index(first[:-2], shape[:-2])), (first[-2], first[-1])


def _panel_svg(panel: np.ndarray, label: str, scale: float, x0: int, first: tuple[int, int] | None):
    pooled, by_r, by_c = _pool(panel)
    rows, cols = pooled.shape
    cell = max(4, min(34, 280 // max(cols, 1), 280 // max(rows, 1)))
    top = 18
    titles = rows * cols <= 400 and by_r == by_c == 1
    cells = []
    for r in range(rows):
        for c in range(cols):
            value = pooled[r, c]
            fill = SPECIAL_FILL if np.isinf(value) else _colour(value / scale)
            title = f"<title>[{r}, {c}] |error| = {value:.3g}</title>" if titles else ""
            cells.append(
                f'<rect x="{x0 + c * cell}" y="{top + r * cell}" width="{cell}" height="{cell}" '
                f'fill="{fill}">{title}</rect>'
            )
    outline = ""
    if first is not None:
        r, c = first[0] // by_r, first[1] // by_c
        outline = (
            f'<rect class="first-mismatch" x="{x0 + c * cell - 1}" y="{top + r * cell - 1}" '
            f'width="{cell + 2}" height="{cell + 2}" fill="none" stroke="#0057d9" stroke-width="3"/>'
        )
    frame = (
        f'<rect x="{x0}" y="{top}" width="{cols * cell}" height="{rows * cell}" fill="none" '
        f'stroke="#888" stroke-width="1"/>'
    )
    pooled_note = f" (max per {by_r}×{by_c} block)" if by_r > 1 or by_c > 1 else ""
    caption = f'<text x="{x0}" y="12" font-size="11" fill="#333">{escape(label + pooled_note)}</text>'
    return caption + "".join(cells) + frame + outline, max(cols * cell, 72), top + rows * cell + 2


SPECIAL_FILL = "#5b0a91"  # a position where NaN or an infinity is on one side only


def _legend(finite_max: float, special: bool) -> str:
    """The colour ramp from 0 to the largest finite error (none when every finite position agrees), and the
    colour of positions where NaN or an infinity is on one side only."""
    parts = []
    if finite_max > 0:
        stops = "".join(f'<span style="background:{_colour(i / 8)}"></span>' for i in range(9))
        parts.append(
            f'<span class="legend-label">0</span><span class="ramp">{stops}</span>'
            f'<span class="legend-label">{finite_max:.3g}</span> '
            '<span class="legend-note">|actual − expected|</span>'
        )
    if special:
        parts.append(
            f'<span class="legend-special"><span class="swatch" style="background:{SPECIAL_FILL}"></span> '
            "NaN or ±inf on one side only</span>"
        )
    if not parts:
        parts.append('<span class="legend-note">no difference beyond tolerance</span>')
    return (
        f'<div class="legend">{" ".join(parts)} <span class="legend-note">outlined in blue: first mismatch</span></div>'
    )
