"""A grading process reads the published test sets as it starts, so its first submission waits for none."""

from __future__ import annotations

import pytest
from celery.signals import worker_process_init
from django.db import connection
from django.test.utils import CaptureQueriesContext

from judge.problems.models import TestCase
from judge.submissions import services, tasks
from judge.submissions.models import Status, Submission
from tests.conftest import FIRST_THREE, read_solution


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(services, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def cold_worker():
    services.cached_cases.cache_clear()
    yield
    services.cached_cases.cache_clear()


def test_a_starting_worker_process_reads_every_published_test_set(problems, cold_worker):
    assert tasks.warm_up in [ref() for _key, ref in worker_process_init.receivers]  # connected in the task module
    worker_process_init.send(sender=None)  # what Celery sends in each new grading process
    cached = services.cached_cases.cache_info().currsize
    assert cached == 2 * len(FIRST_THREE)  # the Run's cases and the Submit's, of each published problem


def test_the_first_submission_after_the_start_reads_no_test_case(problems, student, no_enqueue, cold_worker):
    services.preload_test_sets()
    submission = services.submit_solution(student, problems[FIRST_THREE[0]], read_solution(FIRST_THREE[0]))
    with CaptureQueriesContext(connection) as queries:
        services.grade_submission(submission.pk)
    assert Submission.objects.get(pk=submission.pk).status == Status.DONE
    table = TestCase._meta.db_table
    assert not [q["sql"] for q in queries if table in q["sql"]]
