"""A rejudge of more than one submission asks first, saying how many it will grade again; one goes straight."""

from __future__ import annotations

import pytest

from judge.authoring.models import RejudgeBatch
from tests.students import graded


@pytest.fixture
def author(django_user_model, client):
    user = django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)
    client.force_login(user)
    return user


@pytest.fixture
def three_submissions(problems, student, second_student):
    return [
        graded(student, problems["prepend_class_token"]),
        graded(second_student, problems["prepend_class_token"]),
        graded(student, problems["add_positional_embedding"]),
    ]


def test_rejudge_everything_asks_first_and_counts_the_submissions(client, author, three_submissions):
    response = client.post("/authoring/rejudge/", {"scope": "everything"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "This will grade <strong>3 submissions</strong>" in page and "across 2 problems" in page
    assert "Rejudge 3 submissions" in page and "Cancel" in page
    assert not RejudgeBatch.objects.exists()


def test_confirming_starts_the_rejudge(client, author, three_submissions):
    response = client.post("/authoring/rejudge/", {"scope": "everything", "confirmed": "yes"})
    batch = RejudgeBatch.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/authoring/rejudge/{batch.pk}/"
    assert batch.total == 3


def test_rejudging_a_problem_asks_first_with_that_problems_count(client, author, three_submissions):
    response = client.post("/authoring/rejudge/", {"scope": "problem", "slug": "prepend_class_token"})
    page = response.content.decode()
    assert "This will grade <strong>2 submissions</strong>" in page and "across" not in page
    assert 'name="slug" value="prepend_class_token"' in page
    assert not RejudgeBatch.objects.exists()


def test_one_submission_is_rejudged_without_asking(client, author, three_submissions):
    response = client.post("/authoring/rejudge/", {"scope": "submission", "submission": three_submissions[0].pk})
    assert response.status_code == 302 and RejudgeBatch.objects.get().total == 1
