"""Submitting is idempotent per click: a retry of a request whose answer was lost gets the submission the first
one made, stored once and graded once, instead of counting twice."""

from __future__ import annotations

import re
import uuid

from judge.submissions.models import Submission
from judge.submissions.services import intake

URL = "/submissions/new/prepend_class_token/"
CODE = "import numpy as np\n\ndef prepend_class_token(x, cls):\n    return x\n"


def click(client, key: str, code: str = CODE, kind: str = "submit", htmx: bool = True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(URL, {"code": code, "kind": kind, "click_key": key}, **headers)


def enqueued(monkeypatch) -> list[int]:
    sent: list[int] = []
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: sent.append(pk))
    return sent


def test_a_retry_after_a_lost_answer_returns_the_same_submission_and_grades_it_once(
    client, problems, student, monkeypatch, django_capture_on_commit_callbacks
):
    sent = enqueued(monkeypatch)
    client.force_login(student)
    key = str(uuid.uuid4())
    with django_capture_on_commit_callbacks(execute=True):
        click(client, key)  # the web worker stored it, then its answer never reached the page
        retry = click(client, key)
    assert retry.status_code == 200
    submission = Submission.objects.get()
    assert re.search(rf"/submissions/{submission.pk}/status/", retry.content.decode())
    assert sent == [submission.pk]  # sent to the graders once


def test_the_form_without_javascript_sent_again_lands_on_the_same_submission(client, problems, student, monkeypatch):
    enqueued(monkeypatch)
    client.force_login(student)
    page = client.get("/problems/prepend_class_token/").content.decode()
    key = re.search(r'name="click_key" value="([0-9a-f-]{36})"', page)[1]
    first, again = click(client, key, htmx=False), click(client, key, htmx=False)
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Submission.objects.count() == 1
    assert client.get("/problems/prepend_class_token/").content.decode().count(key) == 0  # a new page, a new key


def test_a_retry_is_not_counted_against_the_rate_limit(client, problems, student, monkeypatch, settings):
    enqueued(monkeypatch)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "submit": (1, 60)}
    client.force_login(student)
    key = str(uuid.uuid4())
    assert [click(client, key).status_code for _ in range(3)] == [200, 200, 200]
    assert click(client, str(uuid.uuid4())).status_code == 429  # a new click is


def test_each_click_is_its_own_submission(client, problems, student, monkeypatch):
    enqueued(monkeypatch)
    client.force_login(student)
    click(client, str(uuid.uuid4()))
    click(client, str(uuid.uuid4()))
    click(client, "")  # a script that sends no key is not deduplicated
    assert Submission.objects.count() == 3


def test_the_same_key_with_other_code_is_a_new_submission_not_the_old_one(client, problems, student, monkeypatch):
    enqueued(monkeypatch)  # a form restored by the Back button keeps its key, with the code edited since
    client.force_login(student)
    key = str(uuid.uuid4())
    click(client, key, code=CODE)
    click(client, key, code=CODE + "# edited\n")
    assert sorted(Submission.objects.values_list("code", flat=True)) == [CODE, CODE + "# edited\n"]


def test_two_requests_of_one_click_at_once_make_one_submission(problems, student, monkeypatch):
    enqueued(monkeypatch)
    key = uuid.uuid4()
    problem = problems["prepend_class_token"]
    first = intake.submit_solution(student, problem, CODE, client_key=key)
    # the second request passed the view's look-up before the first committed; the unique key stops it
    second = intake.submit_solution(student, problem, CODE, client_key=key)
    assert first.pk == second.pk and Submission.objects.count() == 1
