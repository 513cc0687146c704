"""The decoded-tokens picture: a visible test's generated sequences, the expected ones above the student's.

A visible test whose output is a 2-D integer array that starts with one of its integer inputs (a prompt
followed by generated ids, as greedy decoding returns them) is drawn token by token: for every sequence,
the expected ids and the student's ids in two rows, the prompt in grey, each generated id green where it
matches and red where it does not, and the first generated id that differs outlined. Only visible tests come
here (hidden ones never reach the page with data), so every id drawn is one the page already shows as text.
"""

from __future__ import annotations

import numpy as np
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

MAX_SEQUENCES = 8
MAX_TOKENS = 48
CELL, HEIGHT, LABEL, GAP = 28, 22, 70, 12
PROMPT_FILL, EXPECTED_FILL, SAME_FILL, DIFFERENT_FILL = "#e6e6e6", "#dbe9ff", "#d3f2d3", "#f7c3bd"
OUTLINE = "#0057d9"  # the difference picture's colour for the first mismatch


def prompt_length(inputs: dict, expected: np.ndarray) -> int | None:
    """The length of the prompt ``expected`` continues (an integer input it starts with), or None."""
    if not (isinstance(expected, np.ndarray) and expected.ndim == 2 and expected.dtype.kind in "iu"):
        return None
    for value in inputs.values():
        if (
            isinstance(value, np.ndarray)
            and value.ndim == 2
            and value.dtype.kind in "iu"
            and value.shape[0] == expected.shape[0]
            and value.shape[1] <= expected.shape[1]
            and np.array_equal(value, expected[:, : value.shape[1]])
        ):
            return value.shape[1]
    return None


def drawable(actual: np.ndarray | None, expected: np.ndarray) -> bool:
    """The student's result can be drawn beside ``expected``: as many sequences, finite numbers."""
    return (
        isinstance(actual, np.ndarray)
        and actual.ndim == 2
        and actual.shape[0] == expected.shape[0]
        and actual.dtype.kind in "iuf"
        and bool(np.isfinite(actual).all())
    )


def tokens_picture(actual: np.ndarray, expected: np.ndarray, prompt: int) -> SafeString:
    rows = min(expected.shape[0], MAX_SEQUENCES)
    columns = min(max(expected.shape[1], actual.shape[1]), MAX_TOKENS)
    block = 16 + 2 * HEIGHT + GAP
    width, height = LABEL + columns * CELL + 1, rows * block
    parts = [_sequence(b, actual[b], expected[b], prompt, columns, b * block) for b in range(rows)]
    svg = (
        f'<svg class="decoded-tokens" role="img" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}"><title>The expected token ids and yours, sequence by '
        "sequence: the prompt in grey, generated ids green where they match and red where they differ</title>"
        + "".join(parts)
        + "</svg>"
    )
    return mark_safe(f'<div class="tokens-picture">{svg}{_note(actual, expected, rows, columns)}</div>')  # noqa: S308  (ids and escaped text)


def _sequence(b: int, actual: np.ndarray, expected: np.ndarray, prompt: int, columns: int, y0: int) -> str:
    differs = [
        t
        for t in range(prompt, max(len(actual), len(expected)))
        if t >= len(actual) or t >= len(expected) or actual[t] != expected[t]
    ]
    first = differs[0] if differs else None
    verdict = f"first differs at token {first}" if first is not None else "all generated ids match"
    parts = [
        (
            f'<text x="0" y="{y0 + 12}" font-size="11" fill="#333" class="sequence-label">sequence {b}: '
            f"{escape(verdict)}</text>"
        )
    ]
    for k, (label, ids) in enumerate((("expected", expected), ("yours", actual))):
        y = y0 + 16 + k * HEIGHT
        parts.append(f'<text x="0" y="{y + 15}" font-size="12" fill="#333">{label}</text>')
        for t in range(min(len(ids), columns)):
            fill = _fill(k, t, prompt, actual, expected)
            title = f"[{b}, {t}] {'prompt' if t < prompt else 'generated'}: {label} {_text(ids[t])}"
            parts.append(
                f'<g class="token {label}{" prompt" if t < prompt else ""}" data-position="{t}">'
                f'<rect x="{LABEL + t * CELL}" y="{y}" width="{CELL - 2}" height="{HEIGHT - 2}" '
                f'fill="{fill}"><title>{escape(title)}</title></rect>'
                f'<text x="{LABEL + t * CELL + (CELL - 2) / 2}" y="{y + 15}" font-size="12" '
                f'text-anchor="middle">{escape(_text(ids[t]))}</text></g>'
            )
    if first is not None and first < columns:
        parts.append(
            f'<rect class="first-difference" x="{LABEL + first * CELL - 2}" y="{y0 + 14}" '
            f'width="{CELL + 2}" height="{2 * HEIGHT + 2}" fill="none" stroke="{OUTLINE}" stroke-width="2"/>'
        )
    return "".join(parts)


def _fill(row: int, t: int, prompt: int, actual: np.ndarray, expected: np.ndarray) -> str:
    if t < prompt:
        return PROMPT_FILL
    if row == 0:
        return EXPECTED_FILL
    return SAME_FILL if t < len(expected) and actual[t] == expected[t] else DIFFERENT_FILL


def _text(value) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:.3g}"


def _note(actual: np.ndarray, expected: np.ndarray, rows: int, columns: int) -> str:
    hidden = []
    if expected.shape[0] > rows:
        hidden.append(f"{expected.shape[0] - rows} more sequences")
    if max(expected.shape[1], actual.shape[1]) > columns:
        hidden.append(f"the tokens after the first {columns}")
    return f'<p class="more-panels">…{" and ".join(hidden)} not drawn.</p>' if hidden else ""
