"""Run and Submit are limited per student; over the limit, the page says when to try again (HTTP 429)."""

from __future__ import annotations

import re

import pytest

from judge.submissions.models import Submission
from judge.submissions.services import intake

SLUG = "prepend_class_token"
URL = f"/submissions/new/{SLUG}/"


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def three_a_minute(settings):
    settings.RATE_LIMITS = {"run": (3, 60), "submit": (3, 60)}


def attempt(client, kind: str, htmx: bool = True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(URL, {"code": "x = 1", "kind": kind}, **headers)


def test_the_run_over_the_limit_is_refused_with_when_to_try_again(
    client, problems, student, no_enqueue, three_a_minute
):
    client.force_login(student)
    assert [attempt(client, "run").status_code for _ in range(3)] == [200, 200, 200]
    refused = attempt(client, "run")
    page = refused.content.decode()
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    assert re.search(
        r"Not submitted: you have used all 3 runs allowed per minute; "
        rf"you can run the examples again in {wait} seconds?",
        page,
    )
    assert Submission.objects.count() == 3  # nothing stored for the refused one


def test_a_refused_submit_from_a_plain_form_shows_the_message_above_the_kept_code(
    client, problems, student, no_enqueue, three_a_minute
):
    client.force_login(student)
    for _ in range(3):
        attempt(client, "submit", htmx=False)
    refused = client.post(URL, {"code": "def prepend_class_token(p, c):\n    return p  # mine", "kind": "submit"})
    page = refused.content.decode()
    assert refused.status_code == 429
    assert "you have used all 3 submissions allowed per minute; you can submit again in" in page
    assert "return p  # mine" in page


def test_runs_and_submits_are_counted_apart_and_per_student(
    client, problems, student, second_student, no_enqueue, three_a_minute
):
    client.force_login(student)
    for _ in range(3):
        attempt(client, "run")
    assert attempt(client, "run").status_code == 429
    assert attempt(client, "submit").status_code == 200  # Submit has its own allowance
    client.force_login(second_student)
    assert attempt(client, "run").status_code == 200  # another student is not held back


def test_the_default_allows_ten_a_minute(client, problems, student, no_enqueue):
    client.force_login(student)
    assert {attempt(client, "submit").status_code for _ in range(10)} == {200}
    assert attempt(client, "submit").status_code == 429
