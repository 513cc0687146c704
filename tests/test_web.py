"""The minimal web path: list, problem page, submit, submission page, access."""

from __future__ import annotations

import pytest

from judge.submissions.models import Submission
from judge.submissions.services import intake


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk: None)


def test_problem_list_shows_the_problems_in_learning_order(client, problems):
    page = client.get("/").content.decode()
    positions = [
        page.index(problems[s].title)
        for s in ("prepend_class_token", "add_positional_embedding", "scaled_dot_product_attention")
    ]
    assert positions == sorted(positions)


def test_problem_page_renders_the_statement_and_starter_code(client, problems, student):
    client.force_login(student)
    page = client.get("/problems/prepend_class_token/").content.decode()
    assert "prepend_class_token(patches, cls_token)" in page
    assert "<h2" in page  # the Markdown is rendered
    assert "NotImplementedError" in page or "def prepend_class_token" in page


def test_unknown_problem_is_404(client, problems):
    assert client.get("/problems/no_such_problem/").status_code == 404


def test_reference_solution_is_never_on_the_problem_page(client, problems, student):
    client.force_login(student)
    page = client.get("/problems/prepend_class_token/").content.decode()
    solution_body = problems["prepend_class_token"].solution_code.strip().splitlines()[-1].strip()
    assert solution_body not in page


def test_oversized_submission_gets_a_clear_message_and_is_not_stored(client, problems, student, no_enqueue):
    client.force_login(student)
    response = client.post("/submissions/new/prepend_class_token/", {"code": "#" * 70_000})
    assert response.status_code == 400
    assert "the limit is 65,536 bytes" in response.content.decode()
    assert Submission.objects.count() == 0


def test_non_utf8_upload_gets_a_clear_message(client, problems, student, no_enqueue):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(student)
    upload = SimpleUploadedFile("s.py", b"x = '\xff'\n")
    response = client.post("/submissions/new/prepend_class_token/", {"file": upload})
    assert response.status_code == 400
    assert "not valid UTF-8" in response.content.decode()


def test_submitting_to_an_unknown_problem_is_404(client, problems, student, no_enqueue):
    client.force_login(student)
    assert client.post("/submissions/new/nope/", {"code": "x = 1"}).status_code == 404


def test_another_students_submission_is_refused(client, problems, student, second_student, no_enqueue):
    submission = intake.submit_solution(student, problems["prepend_class_token"], "x = 1")
    client.force_login(second_student)
    assert client.get(f"/submissions/{submission.pk}/").status_code == 404
    client.force_login(student)
    assert client.get(f"/submissions/{submission.pk}/").status_code == 200


def test_anonymous_visitors_cannot_submit(client, problems):
    response = client.post("/submissions/new/prepend_class_token/", {"code": "x = 1"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
