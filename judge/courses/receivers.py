"""What the courses app hears from the apps below it: a rejudge is about to grade students' work again."""

from __future__ import annotations

from django.dispatch import receiver

from judge.authoring.models import RejudgeBatch
from judge.authoring.signals import rejudge_requested
from judge.courses.release import remember_credit_before_rejudge
from judge.submissions.models import Kind, Submission


@receiver(rejudge_requested)
def on_rejudge(sender, batch: RejudgeBatch, **kwargs) -> None:
    """Remember the released credit of the students whose Submits are graded again (one aggregate query)."""
    rows = (
        Submission.objects.filter(pk__in=batch.submission_ids, kind=Kind.SUBMIT)
        .order_by()
        .values_list("user_id", "problem_id")
        .distinct()
    )
    users, problems = {u for u, _ in rows}, {p for _, p in rows}
    if users:
        remember_credit_before_rejudge(batch.pk, sorted(problems), sorted(users))
