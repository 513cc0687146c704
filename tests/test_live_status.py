"""The live status fragment: queue position, then the verdict, pushed to the page by a long poll."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.grading import recording
from judge.grading import services as grading
from judge.submissions import push
from judge.submissions.models import Status
from judge.submissions.services import claims, intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"


@pytest.fixture
def no_enqueue(monkeypatch, grading_worker):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


def test_a_queued_submission_shows_its_position_and_waits_for_a_change(client, problems, student, no_enqueue):
    intake.submit_solution(student, problems[SLUG], "x = 1")
    mine = intake.submit_solution(student, problems[SLUG], "x = 2")
    client.force_login(student)
    page = client.get(f"/submissions/{mine.pk}/status/").content.decode()
    assert "Queued, position 2 in the queue" in page
    assert f'hx-get="/submissions/{mine.pk}/status/?wait=queued"' in page
    assert f'data-poll-url="/submissions/{mine.pk}/status/"' in page  # the fallback when the long poll fails


def test_a_graded_submission_shows_its_verdict_and_stops_polling(client, problems, student, no_enqueue):
    submission = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    grading.grade_submission(submission.pk)
    client.force_login(student)
    page = client.get(f"/submissions/{submission.pk}/status/").content.decode()
    assert 'data-verdict="accepted"' in page and "hx-get" not in page


def test_submitting_from_the_page_returns_the_live_fragment(client, problems, student, no_enqueue):
    client.force_login(student)
    response = client.post(f"/submissions/new/{SLUG}/", {"code": "x = 1", "kind": "run"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and "Queued" in page and "not counted" in page


def test_a_refused_submission_from_the_page_says_why(client, problems, student, no_enqueue):
    client.force_login(student)
    response = client.post(f"/submissions/new/{SLUG}/", {"code": "   "}, HTTP_HX_REQUEST="true")
    assert "Not submitted: the code is empty" in response.content.decode()


def test_another_student_cannot_poll_a_submission(client, problems, student, second_student, no_enqueue):
    submission = intake.submit_solution(student, problems[SLUG], "x = 1")
    client.force_login(second_student)
    assert client.get(f"/submissions/{submission.pk}/status/").status_code == 404


def answer_while(client, url: str, change, after_s: float = 0.3) -> tuple[str, float]:
    """GET ``url`` in a thread, make ``change`` after ``after_s``; the page and how long the request took."""
    result = {}

    def ask() -> None:
        started = time.monotonic()
        try:
            result["page"] = client.get(url).content.decode()
            result["took"] = time.monotonic() - started
        finally:
            connection.close()  # this thread's own connection, or the test database cannot be dropped

    asker = threading.Thread(target=ask)
    asker.start()
    time.sleep(after_s)
    change()
    asker.join(timeout=30)
    return result["page"], result["took"]


@pytest.mark.parametrize("backend", ["redis", "database"])
@pytest.mark.django_db(transaction=True)
def test_the_long_poll_answers_as_soon_as_a_worker_takes_the_submission(
    client, problems, student, no_enqueue, settings, backend
):
    settings.PUSH_QUEUED_WAIT_S = settings.PUSH_WAIT_S = 10.0
    if backend == "database":
        settings.REDIS_URL = None  # the embedded default: the view re-reads the row every PUSH_DB_POLL_S
    submission = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    client.force_login(student)

    def worker_claims() -> None:
        assert claims.claim_submission(submission.pk)
        push.publish_status(submission.pk, Status.RUNNING)

    page, took = answer_while(client, f"/submissions/{submission.pk}/status/?wait=queued", worker_claims)
    assert "Running the tests" in page and "?wait=running" in page
    assert took < 2.0  # woken by the change, not by the 10 s limit


@pytest.mark.django_db(transaction=True)
def test_the_long_poll_brings_the_verdict_the_moment_it_is_recorded(client, problems, student, no_enqueue, settings):
    settings.PUSH_WAIT_S = 10.0
    submission = intake.submit_solution(student, problems[SLUG], read_solution(SLUG))
    token = claims.claim_submission(submission.pk)
    client.force_login(student)

    def worker_records() -> None:
        assert recording.record_verdict(submission.pk, token, GradeReport(Verdict.ACCEPTED))
        push.publish_status(submission.pk, Status.DONE)

    page, took = answer_while(client, f"/submissions/{submission.pk}/status/?wait=running", worker_records)
    assert 'data-verdict="accepted"' in page and "hx-get" not in page
    assert took < 2.0


def test_a_long_poll_with_nothing_new_answers_with_the_same_status_after_its_limit(
    client, problems, student, no_enqueue, settings
):
    settings.PUSH_QUEUED_WAIT_S = 0.3
    submission = intake.submit_solution(student, problems[SLUG], "x = 1")
    client.force_login(student)
    started = time.monotonic()
    page = client.get(f"/submissions/{submission.pk}/status/?wait=queued").content.decode()
    assert time.monotonic() - started >= 0.3
    assert "Queued, position 1 in the queue" in page and "?wait=queued" in page
