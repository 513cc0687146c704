"""A grading process reads the published test sets as it starts, so its first submission waits for none."""

from __future__ import annotations

import pytest
from celery import current_app
from celery.signals import worker_process_init
from django.db import connection
from django.test.utils import CaptureQueriesContext

from judge.grading import services as grading
from judge.grading import tasks
from judge.problems.models import TestCase
from judge.submissions.models import Status, Submission
from judge.submissions.services import intake
from tests.conftest import FIRST_THREE, read_solution


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def cold_worker():
    grading.cached_cases.cache_clear()
    yield
    grading.cached_cases.cache_clear()


def test_a_starting_worker_process_opens_its_sandbox_and_reads_the_test_sets_in_the_background(
    problems, cold_worker, monkeypatch
):
    threads, opened = [], []

    class Recorded:
        """The thread warm_up starts, run here only once warm_up has returned."""

        def __init__(self, target, name, daemon) -> None:
            threads.append(target)

        def start(self) -> None:
            pass

    monkeypatch.setattr(tasks.threading, "Thread", Recorded)
    monkeypatch.setattr(grading, "open_sandbox_ahead", lambda: opened.append(True))
    assert tasks.warm_up in [ref() for _key, ref in worker_process_init.receivers]  # connected in the task module
    worker_process_init.send(sender=None)  # what Celery sends in each new grading process
    assert opened == [True]
    assert grading.cached_cases.cache_info().currsize == 0  # the first submission waits for no reading
    threads[0]()
    assert grading.cached_cases.cache_info().currsize == 2 * len(FIRST_THREE)  # Run's and Submit's, each problem


def test_the_maintenance_worker_opens_no_sandbox_and_reads_no_test_set(problems, cold_worker, monkeypatch):
    queues = current_app.amqp.queues
    monkeypatch.setattr(queues, "_consume_from", {"maintenance": queues["maintenance"]})
    assert not tasks.runs_student_code()
    monkeypatch.setattr(grading, "open_sandbox_ahead", lambda: pytest.fail("opened a sandbox"))
    worker_process_init.send(sender=None)
    assert grading.cached_cases.cache_info().currsize == 0
    monkeypatch.setattr(queues, "_consume_from", {name: queues[name] for name in ("maintenance", "submit")})
    assert tasks.runs_student_code()


def test_the_first_submission_after_the_start_reads_no_test_case(problems, student, no_enqueue, cold_worker):
    grading.preload_test_sets()
    submission = intake.submit_solution(student, problems[FIRST_THREE[0]], read_solution(FIRST_THREE[0]))
    with CaptureQueriesContext(connection) as queries:
        grading.grade_submission(submission.pk)
    assert Submission.objects.get(pk=submission.pk).status == Status.DONE
    table = TestCase._meta.db_table
    assert not [q["sql"] for q in queries if table in q["sql"]]
