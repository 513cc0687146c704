"""The two curves of a series-valued answer (a loss per training step), drawn as one inline SVG.

A problem whose manifest says ``picture = "curve"`` returns a 1-D series; for each visible test the result
page draws the student's values beside the reference's on shared axes, so a run that drifts from step 3 on
is seen at a glance. Only visible tests reach this (``results.shown_row`` returns before it for a hidden
one): the reference's series is its expected output, which a hidden test never shows.
"""

from __future__ import annotations

import numpy as np
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 420, 180, 52, 12, 12, 30
REFERENCE, YOURS = "#8a8a8a", "#0057d9"


def loss_curves(actual: np.ndarray, expected: np.ndarray) -> SafeString | None:
    """Both series as polylines over their index, or None when there is nothing comparable to draw."""
    if actual.ndim != 1 or actual.shape != expected.shape or not actual.size:
        return None
    finite = np.concatenate([actual[np.isfinite(actual)], expected[np.isfinite(expected)]]).astype(np.float64)
    if not finite.size:
        return None
    low, high = float(finite.min()), float(finite.max())
    if high - low < 1e-12 * max(abs(high), 1.0):  # a flat run: centre it in a band
        low, high = low - 0.5, high + 0.5
    count = actual.size

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (i / (count - 1) if count > 1 else 0.5)

    def y(value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    def line(series: np.ndarray, colour: str, name: str, dash: str = "") -> str:
        points = " ".join(f"{x(i):.1f},{y(float(v)):.1f}" for i, v in enumerate(series) if np.isfinite(v))
        marks = "".join(
            f'<circle cx="{x(i):.1f}" cy="{y(float(v)):.1f}" r="2.5" fill="{colour}">'
            f"<title>{name}, step {i}: {float(v):.6g}</title></circle>"
            for i, v in enumerate(series)
            if np.isfinite(v) and count <= 60
        )
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        return (
            f'<polyline class="{name.split()[0]}" points="{points}" fill="none" stroke="{colour}" '
            f'stroke-width="2"{dashed}/>{marks}'
        )

    axes = (
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#444"/>'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#444"/>'
        f'<text x="{LEFT - 4}" y="{TOP + 4}" font-size="10" text-anchor="end">{high:.3g}</text>'
        f'<text x="{LEFT - 4}" y="{HEIGHT - BOTTOM}" font-size="10" text-anchor="end">{low:.3g}</text>'
        f'<text x="{LEFT}" y="{HEIGHT - 10}" font-size="10">step 0</text>'
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 10}" font-size="10" text-anchor="end">step {count - 1}</text>'
    )
    svg = (
        f'<svg class="loss-curves" role="img" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
        f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}"><title>Your values and the reference\'s, step by '
        f"step</title>{axes}{line(expected, REFERENCE, 'reference', '6 4')}{line(actual, YOURS, 'yours')}</svg>"
    )
    legend = (
        '<div class="legend"><span class="legend-yours">━ yours</span> '
        '<span class="legend-reference">┅ reference</span></div>'
    )
    return mark_safe(f'<div class="curve-picture">{svg}{legend}</div>')  # noqa: S308  (numbers and fixed text only)
