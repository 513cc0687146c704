"""Drafts, hint reveals, notes and bookmarks: what a student keeps on a problem besides their submissions."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from judge.learning.models import Bookmark, Draft, HintReveal, Note
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


NOTE_MAX_CHARS = 20_000


class NoteRejected(ValueError):
    """The note cannot be kept; the message tells the student why."""


def note_text(user, problem: Problem) -> str:
    if not user.is_authenticated:
        return ""
    return Note.objects.filter(user=user, problem=problem).values_list("text", flat=True).first() or ""


def save_note(user, problem: Problem, text: str) -> str:
    """Keep the student's note on the problem (an empty one is forgotten); returns the text kept."""
    if len(text) > NOTE_MAX_CHARS:
        raise NoteRejected(f"a note holds at most {NOTE_MAX_CHARS:,} characters; this one has {len(text):,}")
    if not text.strip():
        Note.objects.filter(user=user, problem=problem).delete()
        return ""
    Note.objects.update_or_create(user=user, problem=problem, defaults={"text": text})
    return text


def is_bookmarked(user, problem: Problem) -> bool:
    return user.is_authenticated and Bookmark.objects.filter(user=user, problem=problem).exists()


def bookmarked_ids(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Bookmark.objects.filter(user=user).values_list("problem_id", flat=True))


def set_bookmark(user, problem: Problem, on: bool) -> bool:
    """Bookmark the problem or take the bookmark away (either twice is the same as once)."""
    if on:
        Bookmark.objects.get_or_create(user=user, problem=problem)
    else:
        Bookmark.objects.filter(user=user, problem=problem).delete()
    return on
