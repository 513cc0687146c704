"""Read-only questions about submissions, for pages: marks, history (statistics: judge.standings).

Only Submit attempts that finished count; Run attempts (visible examples) never do.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission


def get_submission_for_user(user, pk: int) -> Submission:
    """A student sees only their own submissions; staff see all."""
    submission = get_object_or_404(Submission.objects.select_related("problem", "user"), pk=pk)
    if not (user.is_staff or submission.user_id == user.pk):
        raise Http404("No such submission.")
    return submission


def graded_submits() -> QuerySet[Submission]:
    return Submission.objects.filter(kind=Kind.SUBMIT, status=Status.DONE)


def accepted_submits() -> QuerySet[Submission]:
    return graded_submits().filter(verdict=Verdict.ACCEPTED)


def solved_and_attempted(user) -> tuple[set[int], set[int]]:
    """Problem ids this user solved, and those they submitted to without solving yet."""
    if not user.is_authenticated:
        return set(), set()
    rows = graded_submits().filter(user=user).order_by().values_list("problem_id", "verdict").distinct()
    solved = {pid for pid, verdict in rows if verdict == Verdict.ACCEPTED}
    return solved, {pid for pid, _ in rows} - solved


def history(user, problem: Problem, limit: int = 50) -> QuerySet[Submission]:
    """This user's attempts on this problem, newest first, without the heavy result data."""
    return Submission.objects.filter(user=user, problem=problem).only(
        "id", "kind", "status", "verdict", "custom_error", "created_at", "problem_id", "user_id"
    )[:limit]


@dataclass(frozen=True)
class EditorialAccess:
    """Whether a student may read a problem's editorial, and if not yet, what opens it (in words)."""

    shown: bool
    note: str = ""


def editorial_access(user, problem: Problem) -> EditorialAccess:
    """An editorial opens with the student's first accepted Submit, or after the manifest's
    ``[editorial] after_failed`` failed Submits; never before, for anyone (staff read it in the workbench)."""
    if not problem.editorial_md.strip():
        return EditorialAccess(False)
    after = problem.editorial_after_failed
    opens = "after your first accepted Submit" + (f" or after {after} failed Submits" if after else "")
    if not user.is_authenticated:
        return EditorialAccess(False, f"The editorial opens {opens}; log in to submit.")
    graded = Submission.objects.filter(user=user, problem=problem, kind=Kind.SUBMIT, status=Status.DONE)
    if graded.filter(verdict=Verdict.ACCEPTED).exists():
        return EditorialAccess(True)
    if after:
        failed = graded.exclude(verdict__in=[Verdict.ACCEPTED, Verdict.INTERNAL_ERROR, ""]).count()
        if failed >= after:
            return EditorialAccess(True)
        return EditorialAccess(False, f"The editorial opens {opens} ({failed} so far).")
    return EditorialAccess(False, f"The editorial opens {opens}.")


def reported_sandbox() -> dict:
    """The sandbox the grading workers used, as the newest graded submission recorded it ({"backend", "numpy"};
    {} before any): what a worker reports, not what this web process would guess from its own settings."""
    recent = Submission.objects.filter(status=Status.DONE).order_by("-pk").values_list("sandbox", flat=True)[:20]
    return next(
        (
            {"backend": str(s["backend"]), "numpy": str(s.get("numpy", ""))}
            for s in recent
            if isinstance(s, dict) and s.get("backend")
        ),
        {},
    )
