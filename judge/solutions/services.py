"""Publishing, withdrawing, voting and moderating solutions: each a compare-and-set on one row, each refusal with
the sentence the student reads."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.verdicts import Verdict
from judge.solutions.models import Moderation, ModerationEntry, PublishedSolution, Vote
from judge.submissions.models import Kind, Status, Submission

REASON_MAX = 500


class SolutionError(Exception):
    """A refused request, with what to tell the person."""


def publish_solution(user, submission: Submission) -> PublishedSolution:
    if submission.user_id != user.pk:
        raise SolutionError("You can publish only your own solutions.")
    if not (
        submission.kind == Kind.SUBMIT and submission.status == Status.DONE and submission.verdict == Verdict.ACCEPTED
    ):
        raise SolutionError("Only an accepted Submit can be published.")
    now = timezone.now()
    with transaction.atomic():
        solution, created = PublishedSolution.objects.get_or_create(
            submission=submission,
            defaults={"problem_id": submission.problem_id, "user_id": user.pk, "published_at": now},
        )
        if not created and solution.withdrawn_at is not None:
            PublishedSolution.objects.filter(pk=solution.pk).update(withdrawn_at=None, published_at=now)
            solution.refresh_from_db()
    return solution


def withdraw_solution(user, solution: PublishedSolution) -> None:
    if solution.user_id != user.pk:
        raise SolutionError("Only its author can withdraw a solution.")
    PublishedSolution.objects.filter(pk=solution.pk, withdrawn_at__isnull=True).update(withdrawn_at=timezone.now())


def vote(user, solution: PublishedSolution, up: bool) -> int:
    """Add (``up``) or take back this person's vote; the solution's count after it."""
    if solution.user_id == user.pk:
        raise SolutionError("You cannot vote for your own solution.")
    if not solution.listed:
        raise SolutionError("This solution is not shown any more.")
    if up:
        try:
            with transaction.atomic():
                Vote.objects.create(solution=solution, user=user)
        except IntegrityError:
            pass  # already voted: a second click counts once
    else:
        Vote.objects.filter(solution=solution, user=user).delete()
    return Vote.objects.filter(solution=solution).count()


def hide_solution(staff, solution: PublishedSolution, reason: str) -> None:
    reason = (reason or "").strip()
    if not staff.is_staff:
        raise SolutionError("Only staff can hide a solution.")
    if not reason:
        raise SolutionError("Say why it is hidden: its author reads the reason.")
    if len(reason) > REASON_MAX:
        raise SolutionError(f"Keep the reason under {REASON_MAX} characters ({len(reason)} now).")
    with transaction.atomic():
        PublishedSolution.objects.filter(pk=solution.pk).update(
            hidden_at=timezone.now(), hidden_by=staff, hidden_reason=reason
        )
        ModerationEntry.objects.create(solution=solution, by=staff, action=Moderation.HIDE, reason=reason)


def show_solution(staff, solution: PublishedSolution) -> None:
    if not staff.is_staff:
        raise SolutionError("Only staff can show a hidden solution again.")
    with transaction.atomic():
        if (
            PublishedSolution.objects.filter(pk=solution.pk, hidden_at__isnull=False).update(
                hidden_at=None, hidden_by=None, hidden_reason=""
            )
            == 1
        ):
            ModerationEntry.objects.create(solution=solution, by=staff, action=Moderation.SHOW)
