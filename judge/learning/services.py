"""Drafts and hint reveals: the only writes a student makes besides submitting."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from judge.learning.models import Draft, HintReveal
from judge.lib.validation import SubmissionRejected, validate_code
from judge.problems.models import Problem


class DraftRejected(ValueError):
    """The draft cannot be stored; the message tells the student why."""


def draft_code(user, problem: Problem) -> str:
    """What the editor opens with: the saved draft, else the starter code."""
    if user.is_authenticated:
        code = Draft.objects.filter(user=user, problem=problem).values_list("code", flat=True).first()
        if code is not None:
            return code
    return problem.starter_code


def save_code_draft(user, problem: Problem, code: str) -> Draft:
    try:
        code = validate_code(code) if code.strip() else code
    except SubmissionRejected as exc:  # the same limits as a submission
        raise DraftRejected(str(exc)) from None
    draft, _ = Draft.objects.update_or_create(user=user, problem=problem, defaults={"code": code})
    return draft


def reset_draft(user, problem: Problem) -> str:
    """Forget the draft; the editor goes back to the starter code."""
    Draft.objects.filter(user=user, problem=problem).delete()
    return problem.starter_code


def revealed_hint_count(user, problem: Problem) -> int:
    if not user.is_authenticated:
        return 0
    return HintReveal.objects.filter(user=user, problem=problem).count()


def reveal_next_hint(user, problem: Problem) -> int:
    """Record that the next hint was shown; returns how many are revealed now."""
    shown = revealed_hint_count(user, problem)
    if shown >= len(problem.hints):
        return shown
    try:
        with transaction.atomic():
            HintReveal.objects.create(user=user, problem=problem, index=shown)
    except IntegrityError:  # a double click raced us to the same hint
        pass
    return revealed_hint_count(user, problem)
