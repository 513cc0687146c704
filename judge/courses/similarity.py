"""Similarity between students' final submissions to one assignment problem, for the instructor only.

Fingerprints are copydetect's (winnowing over the Python tokens, identifiers normalised), with the problem's
starter code as boilerplate so that what everyone was given never counts. Code is only read as text here: it is
tokenised, never run. A student's final submission is their last Submit inside their own window, or their last
Submit at all when none was inside it.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from django.utils.safestring import SafeString, mark_safe

from judge.courses.grades import course_submits, students_of, windows_of
from judge.courses.models import Assignment

if TYPE_CHECKING:
    from copydetect import CodeFingerprint

# copydetect is imported where it is used: it imports matplotlib's pyplot, 0.7 s of CPU that every process
# importing the URLs (each web and Celery worker, each manage.py command: Django's checks read them) paid.

# A match needs NOISE_TOKENS tokens in a row, and any run of GUARANTEE_TOKENS is sure to be found. copydetect's
# defaults (25 and 30) suit whole programs; a NumPy answer is often 40 tokens, so both are smaller here.
NOISE_TOKENS = 12
GUARANTEE_TOKENS = 18
SHOWN_PAIRS = 20
MARK = ('<mark class="match">', "</mark>")


@dataclass
class Pair:
    first: str
    second: str
    similarity: float  # the larger of the two shares of tokens found in the other
    first_html: SafeString
    second_html: SafeString


def fingerprint(code: str, boilerplate) -> CodeFingerprint:
    from copydetect import CodeFingerprint

    return CodeFingerprint("solution.py", NOISE_TOKENS, GUARANTEE_TOKENS - NOISE_TOKENS + 1,
                           boilerplate=boilerplate, language="python", fp=io.StringIO(code))


def final_codes(assignment: Assignment, problem) -> dict[str, str]:
    students = students_of(assignment.course)
    windows = windows_of(assignment, students)
    names = {s.user_id: s.username for s in students}
    rows = (course_submits(assignment.course, [problem.pk]).order_by("-created_at", "-pk")
            .values_list("user_id", "created_at", "code"))
    inside: dict[int, str] = {}
    last: dict[int, str] = {}
    for user_id, at, code in rows.iterator():
        window = windows.get(user_id)
        if user_id not in names or window is None:
            continue
        last.setdefault(user_id, code)
        if window.contains(at):
            inside.setdefault(user_id, code)
    return {names[u]: inside.get(u, code) for u, code in last.items()}


def similar_pairs(codes: dict[str, str], starter: str, limit: int = SHOWN_PAIRS) -> list[Pair]:
    """The ``limit`` most similar pairs. Every pair is screened by the share of fingerprints the two have in common
    (set intersections: 45,000 pairs in a fraction of a second); copydetect then compares the best few token by
    token, which gives the score shown and the regions to mark."""
    from copydetect import compare_files

    boilerplate = np.array(sorted(fingerprint(starter, None).hashes), dtype=np.int64) if starter.strip() else None
    prints = {name: fingerprint(code, boilerplate) for name, code in codes.items()}
    hashes = {name: set(p.hashes) for name, p in prints.items()}
    screened = []
    for a, b in itertools.combinations(sorted(prints), 2):
        if hashes[a] and hashes[b] and (common := len(hashes[a] & hashes[b])):
            screened.append((common / min(len(hashes[a]), len(hashes[b])), a, b))
    screened.sort(key=lambda row: (-row[0], row[1], row[2]))
    scored = []
    for _, a, b in screened[:limit * 3]:
        overlap, shares, slices = compare_files(prints[a], prints[b])
        if overlap:
            scored.append((max(shares), a, b, slices))
    scored.sort(key=lambda row: (-row[0], row[1], row[2]))
    return [Pair(a, b, score, marked(prints[a].raw_code, slices[0]), marked(prints[b].raw_code, slices[1]))
            for score, a, b, slices in scored[:limit]]


def marked(code: str, slices) -> SafeString:
    """The code, HTML-escaped, with the matching regions in <mark>."""
    from copydetect.utils import highlight_overlap

    html, _ = highlight_overlap(code, slices, *MARK, escape_html=True)
    return mark_safe(html)  # noqa: S308 (copydetect escaped the code; only our <mark> tags are raw)
