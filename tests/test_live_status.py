"""The live status fragment htmx polls: queue position, then the verdict; and submitting from the page."""

from __future__ import annotations

import pytest

from judge.submissions import services
from tests.conftest import read_solution

SLUG = "prepend_class_token"


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(services, "enqueue", lambda pk: None)


def test_a_queued_submission_shows_its_position_and_keeps_polling(client, problems, student, no_enqueue):
    services.submit_solution(student, problems[SLUG], "x = 1")
    mine = services.submit_solution(student, problems[SLUG], "x = 2")
    client.force_login(student)
    page = client.get(f"/submissions/{mine.pk}/status/").content.decode()
    assert "Queued, position 2 in the queue" in page
    assert f'hx-get="/submissions/{mine.pk}/status/"' in page


def test_a_graded_submission_shows_its_verdict_and_stops_polling(client, problems, student, no_enqueue):
    submission = services.submit_solution(student, problems[SLUG], read_solution(SLUG))
    services.grade_submission(submission.pk)
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
    submission = services.submit_solution(student, problems[SLUG], "x = 1")
    client.force_login(second_student)
    assert client.get(f"/submissions/{submission.pk}/status/").status_code == 404
