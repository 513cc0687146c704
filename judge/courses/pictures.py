"""The instructor's pictures of an assignment, drawn on the server as inline SVG (no script, which the site's
content security policy forbids inline anyway): a histogram of the students' points, read from the same
``AssignmentGrades`` the gradebook shows, and the class's first solves over time, from the progress matrix.
Every bar carries a <title>, so hovering (or a screen reader) gives its exact count."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, TOP, BOTTOM, LEFT = 560, 170, 12, 34, 30
# Bucket widths for solves over time, smallest first: the first that draws the span in at most MAX_BARS bars.
BUCKETS = (
    timedelta(minutes=10),
    timedelta(minutes=30),
    timedelta(hours=1),
    timedelta(hours=3),
    timedelta(hours=6),
    timedelta(days=1),
    timedelta(days=7),
)
MAX_BARS = 48


def score_bins(points: list[float], problems: int) -> list[int]:
    """How many students have k points, rounded down, for k = 0..problems (a late half credit counts below)."""
    bins = [0] * (problems + 1)
    for p in points:
        bins[min(max(int(p + 1e-9), 0), problems)] += 1
    return bins


def score_histogram(grades, students) -> SafeString:
    problems = len(grades.problems)
    bins = score_bins([grades.total(s.user_id) for s in students], problems)
    labels = [str(k) for k in range(problems + 1)]
    titles = [f"{n} student{'s' * (n != 1)} with {describe_points(k, problems)}" for k, n in enumerate(bins)]
    return bar_chart(
        "score-histogram",
        f"Points on {problems} problem{'s' * (problems != 1)}, per student",
        bins,
        labels,
        titles,
        "points (rounded down)",
    )


def describe_points(k: int, problems: int) -> str:
    return f"all {problems} points" if k == problems else f"{k} to under {k + 1} points"


def solve_times(cells) -> list[datetime]:
    return sorted(p.first_solved for p in cells.values() if p.first_solved)


def bucket_for(span: timedelta) -> timedelta:
    return next((b for b in BUCKETS if span / b <= MAX_BARS), BUCKETS[-1])


def solves_over_time(cells, due_at: datetime | None) -> SafeString:
    """First solves (one per student and problem) per time bucket, in the viewer's time zone."""
    times = solve_times(cells)
    if not times:
        return mark_safe('<p class="muted" id="solves-over-time">No solves yet.</p>')
    step = bucket_for(times[-1] - times[0])
    start = floor_to(timezone.localtime(times[0]), step)
    counts = [0] * (int((times[-1] - start) / step) + 1)
    for t in times:
        counts[int((t - start) / step)] += 1
    shown = "%H:%M" if step < timedelta(days=1) else "%b %d"
    edges = [timezone.localtime(start + i * step) for i in range(len(counts) + 1)]
    labels = [edges[i].strftime(shown) for i in range(len(counts))]
    titles = [
        f"{n} solve{'s' * (n != 1)} from {edges[i].strftime('%b %d %H:%M')} to {edges[i + 1].strftime('%b %d %H:%M')}"
        for i, n in enumerate(counts)
    ]
    due = (due_at - start) / step if due_at and start <= due_at <= start + len(counts) * step else None
    return bar_chart(
        "solves-over-time",
        "First solves over time (one per student and problem)",
        counts,
        labels,
        titles,
        f"your time, {describe(step)} per bar",
        marker=due,
    )


def floor_to(moment: datetime, step: timedelta) -> datetime:
    """``moment`` rounded down to a multiple of ``step`` counted from its local midnight (or its Monday)."""
    base = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if step >= timedelta(days=7):
        base -= timedelta(days=base.weekday())
    return base + ((moment - base) // step) * step


def describe(step: timedelta) -> str:
    minutes = int(step.total_seconds() // 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h" if minutes < 1440 else f"{minutes // 1440} d"


def bar_chart(
    css_id: str,
    caption: str,
    counts: list[int],
    labels: list[str],
    titles: list[str],
    axis: str,
    marker: float | None = None,
) -> SafeString:
    """Bars scaled to the largest count, each with its count as a <title> and ``data-count``; a label under every
    bar when they fit, else under every few. ``marker``: a bar position (fractional) to draw the due line at."""
    tallest = max(counts) or 1
    slot = (WIDTH - LEFT) / len(counts)
    every = max(1, round(len(labels) * 44 / (WIDTH - LEFT)))
    plot = HEIGHT - TOP - BOTTOM
    parts = [
        f'<text x="{LEFT - 4}" y="{TOP + 4}" font-size="10" text-anchor="end" fill="#555">{tallest}</text>',
        f'<text x="{LEFT - 4}" y="{TOP + plot}" font-size="10" text-anchor="end" fill="#555">0</text>',
        f'<line x1="{LEFT}" y1="{TOP + plot}" x2="{WIDTH}" y2="{TOP + plot}" stroke="#888"/>',
    ]
    for i, (n, label, title) in enumerate(zip(counts, labels, titles)):
        x, height = LEFT + i * slot, plot * n / tallest
        parts.append(
            f'<rect class="bar" data-count="{n}" data-label="{escape(label)}" x="{x + 1:.1f}" '
            f'y="{TOP + plot - height:.1f}" width="{max(slot - 2, 1):.1f}" height="{height:.1f}" '
            f'fill="#3b6fb6"><title>{escape(title)}</title></rect>'
        )
        if i % every == 0:
            parts.append(
                f'<text x="{x + slot / 2:.1f}" y="{TOP + plot + 13}" font-size="10" text-anchor="middle" '
                f'fill="#333">{escape(label)}</text>'
            )
    if marker is not None:
        x = LEFT + marker * slot
        parts.append(
            f'<line class="due" x1="{x:.1f}" y1="{TOP - 4}" x2="{x:.1f}" y2="{TOP + plot}" stroke="#c0392b" '
            f'stroke-dasharray="4 3"><title>due</title></line>'
            f'<text x="{x + 3:.1f}" y="{TOP + 6}" font-size="10" fill="#c0392b">due</text>'
        )
    parts.append(
        f'<text x="{(LEFT + WIDTH) / 2:.0f}" y="{HEIGHT - 4}" font-size="10" text-anchor="middle" '
        f'fill="#555">{escape(axis)}</text>'
    )
    # Every text in the picture went through escape(); the rest is numbers.
    return mark_safe(  # noqa: S308
        f'<figure class="chart" id="{css_id}"><figcaption>{escape(caption)}</figcaption>'
        f'<svg role="img" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}"><title>{escape(caption)}</title>{"".join(parts)}</svg></figure>'
    )
