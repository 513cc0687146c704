"""The problem page as a student sees it, put together from every app: the statement, the examples, their draft,
history and prerequisites, and the custom-input form. Both the problem's view and a refused Submit render it."""

from __future__ import annotations

import functools
import uuid

from django.shortcuts import render
from django.utils import timezone

from judge.courses.notes import due_notes
from judge.courses.release import editorial_for, marked_held
from judge.display.custom_inputs import custom_fields, takes_params
from judge.display.results import expected_arrays, format_array, shown_as_bytes
from judge.learning.services import NOTE_MAX_CHARS, draft_code, is_bookmarked, note_text, revealed_hint_count
from judge.problems.models import Problem
from judge.problems.queries import visible_case_data
from judge.problems.rendering import render_markdown
from judge.submissions.composition import builds_on, chain_of, locked_reason, prerequisites_of
from judge.submissions.queries import history
from judge.submissions.reviews import review_of


def problem_page(
    request,
    problem: Problem,
    code: str | None = None,
    error: str = "",
    status: int = 200,
    custom_texts: dict[str, str] | None = None,
    custom_errors: dict[str, str] | None = None,
    review: bool = False,
    review_refused: str = "",
):
    """The problem page; also re-shown with ``error`` (and the custom input's) when a plain form post is refused.
    ``review``: the spaced review's re-solve, from the starter code, whose Submit counts for the review alone."""
    user = request.user
    shown = revealed_hint_count(user, problem)
    locked = locked_reason(user, problem) if builds_on(problem) else ""
    editorial = editorial_for(user, problem)
    return render(
        request,
        "problems/detail.html",
        {
            "problem": problem,
            "click_key": uuid.uuid4(),  # without JavaScript, one per page: a resent form is the same click
            "statement_html": render_markdown(problem.statement_md),
            "theory_html": render_markdown(problem.theory_md) if problem.theory_md else "",
            "hints_html": [render_markdown(hint) for hint in problem.hints[:shown]],
            # Rendered only once it is open to this student (judge/submissions/queries.py, editorial_access).
            "editorial_html": render_markdown(problem.editorial_md) if editorial.shown else "",
            "editorial_note": editorial.note,
            "hints_left": len(problem.hints) - shown,
            "examples": visible_examples(problem),
            "submissions": marked_held(user, history(user, problem)) if user.is_authenticated else [],
            "code": code if code is not None else problem.starter_code if review else draft_code(user, problem),
            "error": error,
            # Earlier problems whose accepted solutions this one imports, and whether that locks it for now.
            "prerequisites": prerequisites_of(user, problem) if builds_on(problem) else [],
            "locked": locked,
            # Locked: everything still to solve before it opens, what the prerequisites build on included.
            "chain": chain_of(user, problem) if locked else [],
            # The custom-input form (``judge/display/custom_inputs.py``): prefilled from the first visible example.
            "custom_fields": custom_fields(problem, custom_texts, custom_errors) if user.is_authenticated else [],
            "custom_whole_form": (custom_errors or {}).get("", ""),
            "custom_open": custom_errors is not None,
            "custom_available": bool(problem.solution_code.strip()) and not takes_params(problem),
            "custom_takes_params": takes_params(problem),
            # Where the problem is in the student's assignments: "due in 2 h 13 min", late, or practice only.
            "due_notes": due_notes(user, problem, timezone.now()),
            "review": review,
            "review_refused": review_refused,
            "review_item": review_of(user, problem) if user.is_authenticated and not review else None,
            "now": timezone.now(),
        }
        | learner_context(user, problem),
        status=status,
    )


def learner_context(user, problem: Problem) -> dict:
    """The student's own note (as text, and as the page shows it) and bookmark on this problem."""
    text = note_text(user, problem)
    return {
        "note_text": text,
        "note_html": render_markdown(text) if text else "",
        "note_max_chars": NOTE_MAX_CHARS,
        "bookmarked": is_bookmarked(user, problem),
    }


def visible_examples(problem: Problem) -> list[dict]:
    if problem.current_test_set_id is None:
        return []
    return _examples(problem.current_test_set_id, shown_as_bytes(problem.spec or {}))


@functools.lru_cache(maxsize=256)
def _examples(test_set_id: int, as_bytes: frozenset[str]) -> list[dict]:
    """The visible tests, formatted once: a test set never changes after it is made. The arrays ``as_bytes``
    names (``[display] bytes``) are shown as text as well."""
    cases = visible_case_data(test_set_id)
    return [
        {
            "name": name,
            "inputs": [format_array(k, v, k in as_bytes) for k, v in inputs.items()],
            "outputs": expected_arrays(expected, as_bytes),
        }
        for name, (inputs, expected) in cases.items()
    ]
