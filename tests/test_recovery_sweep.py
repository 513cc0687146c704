"""The recovery sweep tells a lost submission from one that is only waiting: during a flood, submissions queued
for over a minute were all sent again (53 at once), and a dead worker's every 3 s until one was claimed."""

from __future__ import annotations

from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from judge.grading import services as grading
from judge.lib.broker import held_submissions
from judge.submissions.models import Status, Submission
from judge.submissions.services import claims, intake

pytestmark = pytest.mark.django_db(transaction=True)  # committed, so each submission's message is really sent

SLUG = "prepend_class_token"


@pytest.fixture
def broker():
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.flushdb()
    yield client
    client.flushdb()


def drop_message(client: redis.Redis, submission_id: int) -> None:
    """Take ``submission_id``'s message out of the broker, as a Redis restart without persistence would."""
    for key in client.keys("*"):
        if client.type(key) == b"list":
            for raw in client.lrange(key, 0, -1):
                if f"({submission_id},".encode() in raw:
                    client.lrem(key, 1, raw)
                    return
    raise AssertionError(f"no message for {submission_id}")


def made_old(*submissions: Submission) -> None:
    Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(
        enqueued_at=timezone.now() - timedelta(minutes=5)
    )


def test_the_broker_says_which_submissions_it_holds(problems, student, broker):
    waiting = [intake.submit_solution(student, problems[SLUG], "x = 1") for _ in range(3)]
    assert held_submissions(intake.GRADE_TASK) == {s.pk for s in waiting}
    drop_message(broker, waiting[1].pk)
    assert held_submissions(intake.GRADE_TASK) == {waiting[0].pk, waiting[2].pk}


def test_only_submissions_whose_message_the_broker_lost_are_sent_again(problems, student, broker):
    waiting, lost, also_waiting = (intake.submit_solution(student, problems[SLUG], "x = 1") for _ in range(3))
    made_old(waiting, lost, also_waiting)
    drop_message(broker, lost.pk)
    assert claims.recover_stalled_submissions() == [lost.pk]
    assert held_submissions(intake.GRADE_TASK) == {waiting.pk, lost.pk, also_waiting.pk}
    assert claims.recover_stalled_submissions() == []  # the next sweep sends nothing: all are held


def test_a_dead_workers_submission_is_queued_again_and_sent_once(problems, student, broker):
    orphan = intake.submit_solution(student, problems[SLUG], "x = 1")
    drop_message(broker, orphan.pk)  # the dead worker had taken it
    assert claims.claim_submission(orphan.pk)
    Submission.objects.filter(pk=orphan.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=1))
    assert claims.recover_stalled_submissions() == [orphan.pk]
    orphan.refresh_from_db()
    assert orphan.status == Status.QUEUED and orphan.claim is None and orphan.attempts == 1
    assert claims.recover_stalled_submissions() == []  # not sent again at every sweep
    assert grading.grade_submission(orphan.pk) is True  # and graded once it is taken
    orphan.refresh_from_db()
    assert orphan.status == Status.DONE and orphan.attempts == 2
