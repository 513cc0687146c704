"""Read-only questions the authoring pages ask; no writes here."""

from __future__ import annotations

from django.db.models import QuerySet

from judge.authoring.models import RejudgeScope
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission


def rejudge_candidates(
    scope: str, problem: Problem | None = None, submission: Submission | None = None
) -> QuerySet[Submission]:
    """The finished submissions a rejudge of this scope grades again (what the confirmation counts)."""
    chosen = Submission.objects.filter(status=Status.DONE, problem__current_test_set__isnull=False)
    if scope == RejudgeScope.SUBMISSION:
        assert submission is not None  # this scope names its submission
        return chosen.filter(pk=submission.pk)
    if scope == RejudgeScope.PROBLEM:
        return chosen.filter(problem=problem, kind=Kind.SUBMIT)
    return chosen.filter(kind=Kind.SUBMIT)
