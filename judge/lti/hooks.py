"""Where the LTI app hears that a student's credit may have changed. The apps below it cannot import it, so
they announce the changes with signals of their own (``judge.submissions.signals``,
``judge.courses.signals``); each receiver only marks scores to send and queues the tasks."""

from __future__ import annotations

from django.dispatch import receiver

from judge.courses.signals import credit_rules_changed
from judge.lti import scores
from judge.submissions.models import Kind
from judge.submissions.signals import verdict_recorded


@receiver(verdict_recorded)
def on_verdict(sender, submission, **kwargs) -> None:
    if submission.kind == Kind.SUBMIT:
        scores.scoring_links_seen.verdict(submission.user_id, submission.problem_id)


@receiver(credit_rules_changed)
def on_assignment(sender, assignment_id: int, **kwargs) -> None:
    scores.assignment_changed(assignment_id)
