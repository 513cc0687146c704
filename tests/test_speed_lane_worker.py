"""Through real Celery workers started as bin/run starts them: while speed measurements hold the speed worker,
an accepted Submit's verdict is recorded at once (before, two measurements held both grading slots)."""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings

from judge.grading import services as grading
from judge.problems.models import BenchmarkCase
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.conftest import read_solution
from tests.test_speed_lane import bin_run_workers
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
# Correct, and sleeps 0.3 s per call: its measurement holds a worker for 40 s or more
# (13 repeats of every benchmark draw; sleeping costs no CPU time, so no budget cuts the repeats short).
SLOW_CORRECT = (
    read_solution(SLUG)
    + """
_correct = prepend_class_token


def prepend_class_token(patches, cls_token):
    __import__("time").sleep(0.3)
    return _correct(patches, cls_token)
"""
)


def measurements_held() -> int:
    """How many speed measurements a worker has taken and not finished (unacknowledged in Redis)."""
    held = redis.Redis.from_url(settings.CELERY_BROKER_URL).hvals("unacked")
    return sum(json.loads(message)[0]["headers"]["task"] == grading.SPEED_TASK for message in held)


def test_a_verdict_is_recorded_while_speed_measurements_hold_the_speed_worker(
    problems, student, second_student, start_worker, tmp_path
):
    problem = problems[SLUG]
    assert BenchmarkCase.objects.filter(test_set=problem.current_test_set).exists()
    log = tmp_path / "worker.log"
    for _, args in bin_run_workers():  # as bin/run starts them (each named by the fixture), speed measured
        named = args.index("-n") if "-n" in args else len(args)
        start_worker(*args[:named], *args[named + 2 :], env={"MEASURE_SPEED": "1"})
    slow = [
        Submission.objects.create(
            user=student,
            problem=problem,
            test_set=problem.current_test_set,
            code=SLOW_CORRECT,
            kind="submit",
            status="done",
            verdict="accepted",
        )
        for _ in range(2)
    ]
    for submission in slow:
        grading.enqueue_speed(submission.pk)
    wait_for(measurements_held, 60, "a worker to take a speed measurement", log)

    submission = intake.submit_solution(second_student, problem, read_solution(SLUG))
    done = wait_for(lambda: final(submission.pk), 20, "the verdict", log)
    assert done.verdict == "accepted"
    assert measurements_held() == 1  # the speed worker's one, still going: the other waits for it
    assert not Submission.objects.filter(pk__in=[s.pk for s in slow], speed__isnull=False).exists()
