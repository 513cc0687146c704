"""Pictures of a visible test's output beside the expected one, where a student would rather look than read
numbers: token ids as a strip of cells (mismatches marked), top-k/top-p filtered logits as bars with the kept
tokens marked, attention-like outputs (biases, masks, rollouts) as heatmaps.

Which one a problem gets is its manifest's ``[display] picture`` (``ProblemSpec.picture``); integer outputs
get the token strip without asking. Drawn on the server as inline SVG (no script: the content security policy
forbids inline script, and the live result fragment is swapped in as HTML). Only visible tests reach here, so
every number drawn is one the page shows as text anyway.
"""

from __future__ import annotations

import numpy as np
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

MAX_ROWS = 8  # rows of a token strip, rows of bars, panels of a heatmap
MAX_TOKENS = 48  # cells of a strip row, bars of a row
MAX_CELLS = 40  # a heatmap panel's side; larger ones are not drawn
MASKED_FILL = "#2b2b3a"  # -inf: a masked position
SPECIAL_FILL = "#c51b7d"  # NaN or +inf
KEPT, DROPPED, EXTRA, MISSING = "#2166ac", "#d9d9d9", "#d7301f", "#f4a582"


def output_picture(
    kind: str, inputs: dict, expected: np.ndarray, actual: np.ndarray | None, as_bytes: bool = False
) -> tuple[str, SafeString] | None:
    """(heading, SVG) for one visible test, or None when the problem has no picture or the arrays do not fit;
    ``as_bytes``: the output holds bytes, whose cells show their characters."""
    readable = actual is not None and actual.dtype.kind in "biuf" and actual.shape == expected.shape
    comparable = actual if readable else None
    if expected.dtype.kind in "iu" and as_bytes:
        return "Bytes: expected and yours", token_strip(expected, comparable, as_bytes=True)
    if expected.dtype.kind in "iu":
        return "Tokens: expected and yours", token_strip(expected, comparable)
    if kind == "kept_tokens":
        logits = next((v for v in inputs.values() if isinstance(v, np.ndarray) and v.shape == expected.shape), None)
        if logits is None or expected.ndim == 0:
            return None
        return "Kept tokens: expected and yours", kept_tokens(logits, expected, comparable)
    if kind == "heatmap" and 1 <= expected.ndim <= 3 and max(expected.shape[-2:]) <= MAX_CELLS:
        return "The output as a heatmap: expected and yours", heatmaps(expected, comparable)
    return None


def _rows(array: np.ndarray) -> np.ndarray:
    return array.reshape(1, -1) if array.ndim <= 1 else array.reshape(-1, array.shape[-1])


def _svg(css_class: str, title: str, width: int, height: int, body: str, note: str = "") -> SafeString:
    # The title is escaped; the body and note are made here from numbers and escaped text.
    return mark_safe(  # noqa: S308
        f'<div class="output-picture {css_class}"><svg role="img" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}"><title>{escape(title)}</title>'
        f"{body}</svg>{note}</div>"
    )


def _note(rows: int, columns: int, shown_rows: int, shown_columns: int) -> str:
    if rows <= shown_rows and columns <= shown_columns:
        return ""
    return (
        f'<p class="more-panels">Drawn: the first {min(rows, shown_rows)} of {rows} rows and '
        f"{min(columns, shown_columns)} of {columns} positions.</p>"
    )


def token_strip(expected: np.ndarray, actual: np.ndarray | None, as_bytes: bool = False) -> SafeString:
    """Each row's expected ids over yours, one cell per position; your cells that differ are red. With
    ``as_bytes`` a cell shows its byte's character (``_byte``) and the tooltip its value too."""
    shown = _byte if as_bytes else _id
    want = _rows(expected)
    got = _rows(actual) if actual is not None else None
    cell, label_width, parts, y = 34, 70, [], 0
    for r in range(min(len(want), MAX_ROWS)):
        lines = [("expected", want[r], None)] + ([("yours", got[r], want[r])] if got is not None else [])
        for label, ids, reference in lines:
            parts.append(f'<text x="0" y="{y + 15}" font-size="11" fill="#333">{label}</text>')
            for c, value in enumerate(ids[:MAX_TOKENS]):
                wrong = reference is not None and value != reference[c]
                fill = EXTRA if wrong else "#f7f7f7"
                tip = f"position {c}: {_id(value)}" + (f", expected {_id(reference[c])}" if wrong else "")
                tip += (
                    f" ({shown(value)}" + (f", expected {shown(reference[c])})" if wrong else ")") if as_bytes else ""
                )
                parts.append(
                    f'<g class="token{" wrong" if wrong else ""}"><title>{escape(tip)}</title>'
                    f'<rect x="{label_width + c * cell}" y="{y}" width="{cell - 2}" height="20" fill="{fill}" '
                    f'stroke="#999"/><text x="{label_width + c * cell + (cell - 2) / 2}" y="{y + 14}" '
                    f'font-size="10" text-anchor="middle" fill="{"#fff" if wrong else "#111"}">'
                    f"{escape(shown(value))}</text></g>"
                )
            y += 24
        y += 8
    width = label_width + min(want.shape[1], MAX_TOKENS) * cell
    return _svg(
        "token-strip",
        "Token ids: expected, and yours with differing ids in red",
        width,
        max(y, 1),
        "".join(parts),
        _note(len(want), want.shape[1], MAX_ROWS, MAX_TOKENS),
    )


def _byte(value) -> str:
    """A byte's character as a bytes literal writes it: ``a``, ``\\xff``, ``\\n``; a value that is not a byte as
    its number."""
    number = float(value)
    if not (number.is_integer() and 0 <= number <= 255):
        return _id(value)
    return repr(bytes([int(number)]))[2:-1]


def _id(value) -> str:
    """An id as text; a float (a wrong dtype's result) that is not a whole number as itself."""
    number = float(value)
    return str(int(number)) if np.isfinite(number) and number == int(number) else f"{number:.3g}"


def kept_tokens(logits: np.ndarray, expected: np.ndarray, actual: np.ndarray | None) -> SafeString:
    """Each row's logits as bars (height above the row's smallest finite logit). Blue: kept, as expected;
    grey: dropped, as expected; red: kept by you but dropped in the expected result; salmon: the other way."""
    rows, want = _rows(logits), np.isfinite(_rows(expected))
    got = np.isfinite(_rows(actual)) if actual is not None else want
    bar, height, parts, y = 10, 60, [], 0
    for r in range(min(len(rows), MAX_ROWS)):
        row = rows[r, :MAX_TOKENS]
        finite = row[np.isfinite(row)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        span = high - low or 1.0
        parts.append(f'<text x="0" y="{y + 11}" font-size="11" fill="#333">row {r}</text>')
        for c, value in enumerate(row):
            fill = (KEPT if want[r, c] else DROPPED) if want[r, c] == got[r, c] else (EXTRA if got[r, c] else MISSING)
            size = 2 + (height - 2) * (float(value) - low) / span if np.isfinite(value) else 1
            state = {
                KEPT: "kept",
                DROPPED: "dropped",
                EXTRA: "kept by you, dropped in the expected result",
                MISSING: "kept in the expected result, dropped by you",
            }[fill]
            parts.append(
                f'<rect x="{c * (bar + 2)}" y="{y + 16 + height - size:.1f}" width="{bar}" '
                f'height="{size:.1f}" '
                f'fill="{fill}" class="bar {state.split(",")[0].replace(" ", "-")}">'
                f"<title>token {c}: logit {float(value):.4g}, {state}</title></rect>"
            )
        y += height + 24
    legend = (
        f'<p class="legend"><span class="swatch" style="background:{KEPT}"></span> kept '
        f'<span class="swatch" style="background:{DROPPED}"></span> dropped '
        f'<span class="swatch" style="background:{EXTRA}"></span> kept by you only '
        f'<span class="swatch" style="background:{MISSING}"></span> dropped by you only</p>'
    )
    width = min(rows.shape[1], MAX_TOKENS) * (bar + 2)
    return _svg(
        "kept-tokens",
        "Logits per token; colours say which tokens were kept",
        max(width, 60),
        max(y, 1),
        "".join(parts),
        legend + _note(len(rows), rows.shape[1], MAX_ROWS, MAX_TOKENS),
    )


def _ramp(fraction: float) -> str:
    """Pale yellow for the smallest value through green and blue to dark purple for the largest."""
    stops = ((255, 255, 204), (161, 218, 180), (65, 182, 196), (34, 94, 168), (37, 52, 148))
    position = min(max(fraction, 0.0), 1.0) * (len(stops) - 1)
    low = min(int(position), len(stops) - 2)
    t = position - low
    return "#{:02x}{:02x}{:02x}".format(*[round(a + (b - a) * t) for a, b in zip(stops[low], stops[low + 1])])


def heatmaps(expected: np.ndarray, actual: np.ndarray | None) -> SafeString:
    """The expected output's panels (one per leading index) and yours below them, on one colour scale; -inf
    (a masked position) is dark, NaN and +inf magenta."""
    arrays = [("expected", expected)] + ([("yours", actual)] if actual is not None else [])
    finite = np.concatenate([a[np.isfinite(a)] for _, a in arrays])
    low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    span = high - low or 1.0
    panels = expected.reshape(-1, *expected.shape[-2:]) if expected.ndim >= 2 else expected.reshape(1, 1, -1)
    rows, cols = panels.shape[1:]
    cell = max(4, min(22, 220 // max(rows, cols)))
    parts, y = [], 0
    for label, array in arrays:
        stack = array.reshape(panels.shape)
        for k in range(min(len(stack), MAX_ROWS)):
            x0 = k * (cols * cell + 14)
            caption = label + (f" [{k}]" if expected.ndim == 3 else "")
            parts.append(f'<text x="{x0}" y="{y + 11}" font-size="11" fill="#333">{escape(caption)}</text>')
            for r in range(rows):
                for c in range(cols):
                    value = float(stack[k, r, c])
                    fill = (
                        MASKED_FILL
                        if value == -np.inf
                        else SPECIAL_FILL
                        if not np.isfinite(value)
                        else _ramp((value - low) / span)
                    )
                    parts.append(
                        f'<rect x="{x0 + c * cell}" y="{y + 16 + r * cell}" width="{cell}" height="{cell}" '
                        f'fill="{fill}"><title>[{r}, {c}] = {value:.4g}</title></rect>'
                    )
        y += 16 + rows * cell + 12
    stops = "".join(f'<span style="background:{_ramp(i / 8)}"></span>' for i in range(9))
    legend = (
        f'<p class="legend"><span class="legend-label">{low:.3g}</span><span class="ramp">{stops}</span>'
        f'<span class="legend-label">{high:.3g}</span> <span class="swatch" style="background:{MASKED_FILL}">'
        f"</span> -inf (masked)</p>"
    )
    width = min(len(panels), MAX_ROWS) * (cols * cell + 14)
    return _svg(
        "heatmaps",
        "Expected output and yours, one colour scale",
        max(width, 60),
        max(y, 1),
        "".join(parts),
        legend + _more_panels(len(panels)),
    )


def _more_panels(count: int) -> str:
    more = count - MAX_ROWS
    return f'<p class="more-panels">…and {more} more panel{"s" * (more > 1)} not drawn.</p>' if more > 0 else ""
