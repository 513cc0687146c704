"""Attempt limits: an assignment allows each student a number of Submits per problem inside their window. The
student sees how many are left, a Submit past the limit is refused with a message that names the limit (on the
page, and as a 403 for the API and the command-line client), Run stays free, two last Submits sent at once are
not both admitted, and nothing is limited outside the window or for the course's staff."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import services
from judge.courses.models import Assignment, Membership, Role
from judge.lib.validation import SubmissionRejected
from judge.submissions import admission
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.services import intake
from judge.tokens.services import create_token
from tests.courses import make_world, world  # noqa: F401 (fixture)

CODE = "import numpy as np\n\ndef f(x):\n    return x\n"


@pytest.fixture(autouse=True)
def not_sent(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


def limited(w, allowed: int = 2, **dates) -> Assignment:
    now = timezone.now()
    values = {
        "title": "Quiz",
        "opens_at": now - timedelta(days=1),
        "due_at": now + timedelta(days=1),
        "max_submits": allowed,
    } | dates
    return services.save_assignment(w.course, w.instructor, values, [w.problems[0]])


def submit(client, w, kind: str = "submit"):
    return client.post(reverse("submit", args=[w.problems[0].slug]), {"code": CODE, "kind": kind})


def test_the_assignment_page_says_how_many_submits_are_left(client, world):
    quiz = limited(world, 3)
    Submission.objects.create(
        user=world.student,
        problem=world.problems[0],
        kind=Kind.SUBMIT,
        code=CODE,
        test_set_id=world.problems[0].current_test_set_id,
        status=Status.DONE,
        verdict=Verdict.WRONG_ANSWER,
    )
    client.force_login(world.student)
    page = client.get(reverse("assignment-detail", args=[world.course.pk, quiz.pk])).content.decode()
    assert "2 of 3 Submits left" in page
    assert "3 Submits per problem inside your window; Run does not count." in page


def test_the_problem_page_says_how_many_submits_are_left(client, world):
    limited(world, 2)
    client.force_login(world.student)
    submit(client, world)
    page = client.get(reverse("problem-detail", args=[world.problems[0].slug])).content.decode()
    assert "1 of 2 Submits left (Run does not count)." in page


def test_a_submit_from_the_page_updates_the_count_above_the_editor(client, world):
    limited(world, 2)
    client.force_login(world.student)
    answer = client.post(
        reverse("submit", args=[world.problems[0].slug]), {"code": CODE, "kind": "submit"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert '<div id="due-notes" hx-swap-oob="true">' in answer
    assert "1 of 2 Submits left (Run does not count)." in answer


def test_a_submit_past_the_limit_is_refused_and_run_stays_free(client, world):
    limited(world, 2)
    client.force_login(world.student)
    assert [submit(client, world).status_code for _ in range(2)] == [302, 302]
    refused = submit(client, world)
    assert refused.status_code == 400
    assert (
        "Not submitted: you have used all 2 Submits allowed on first_step in Quiz (Transformers in NumPy "
        "(Spring 2026)); Run still checks your code on the visible examples"
    ) in refused.content.decode()
    assert submit(client, world, kind="run").status_code == 302
    assert list(Submission.objects.filter(user=world.student).values_list("kind", flat=True).order_by("pk")) == [
        Kind.SUBMIT,
        Kind.SUBMIT,
        Kind.RUN,
    ]


def test_the_api_and_the_cli_are_told_the_limit_was_reached(client, world):
    limited(world, 1)
    token = create_token(world.student, "laptop", ["read", "submit"])[1]

    def post():
        return client.post(
            "/api/v1/submissions",
            {"problem": world.problems[0].slug, "code": CODE, "kind": "submit"},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )

    assert post().status_code == 202
    refused = post()
    assert refused.status_code == 403
    assert refused.json()["detail"].startswith("you have used all 1 Submit allowed on first_step in Quiz")


def test_a_submit_the_judge_failed_to_grade_does_not_count(client, world):
    limited(world, 1)
    Submission.objects.create(
        user=world.student,
        problem=world.problems[0],
        kind=Kind.SUBMIT,
        code=CODE,
        test_set_id=world.problems[0].current_test_set_id,
        status=Status.DONE,
        verdict=Verdict.INTERNAL_ERROR,
    )
    client.force_login(world.student)
    assert submit(client, world).status_code == 302


def test_outside_the_window_submits_are_practice_and_not_limited(client, world):
    now = timezone.now()
    limited(world, 1, opens_at=now - timedelta(days=9), due_at=now - timedelta(days=2))
    client.force_login(world.student)
    assert [submit(client, world).status_code for _ in range(3)] == [302, 302, 302]


def test_an_extension_gives_the_student_their_limit_in_their_own_window(client, world):
    now = timezone.now()
    quiz = limited(world, 1, opens_at=now - timedelta(days=9), due_at=now - timedelta(days=2))
    Submission.objects.create(
        user=world.student,
        problem=world.problems[0],
        kind=Kind.SUBMIT,
        code=CODE,
        test_set_id=world.problems[0].current_test_set_id,
        status=Status.DONE,
        verdict=Verdict.WRONG_ANSWER,
    )
    Submission.objects.filter(user=world.student).update(created_at=now - timedelta(days=3))  # before the due
    services.set_override(quiz, world.instructor, {"due_at": now + timedelta(days=1)}, "ill", student=world.student)
    client.force_login(world.student)
    assert submit(client, world).status_code == 400  # their one Submit was made inside their (longer) window


@pytest.mark.parametrize("persona", ["instructor", "ta", "stranger", "other_instructor"])
def test_only_the_courses_students_are_limited(client, world, persona):
    limited(world, 1)
    client.force_login(getattr(world, persona))
    assert [submit(client, world).status_code for _ in range(2)] == [302, 302]


def test_the_limit_holds_in_every_course_the_problem_is_assigned_in(client, world):
    limited(world, 5)
    Membership.objects.create(course=world.other, user=world.student, role=Role.STUDENT)
    now = timezone.now()
    services.save_assignment(
        world.other,
        world.other_instructor,
        {"title": "Strict", "opens_at": now - timedelta(days=1), "due_at": now + timedelta(days=1), "max_submits": 1},
        [world.problems[0]],
    )
    client.force_login(world.student)
    assert submit(client, world).status_code == 302
    assert "allowed on first_step in Strict" in submit(client, world).content.decode()


def test_the_same_click_sent_twice_is_not_refused_as_a_second_submit(world):
    limited(world, 1)
    key = __import__("uuid").uuid4()
    first = intake.submit_solution(world.student, world.problems[0], CODE, client_key=key)
    again = intake.submit_solution(world.student, world.problems[0], CODE, client_key=key)
    assert first.pk == again.pk


@pytest.mark.django_db(transaction=True)
def test_two_last_submits_sent_at_once_are_not_both_admitted(django_user_model, monkeypatch):
    w = make_world(django_user_model)
    limited(w, 1)
    counted = list(admission._rules)

    def slow_rule(user, problem, now):  # each request counts, then takes a while before it stores its Submit
        refusal = "".join(rule(user, problem, now) for rule in counted)
        time.sleep(0.5)
        return refusal

    monkeypatch.setattr(admission, "_rules", [slow_rule])
    outcomes: list[str] = []

    def one_click():
        try:
            intake.submit_solution(w.student, w.problems[0], CODE)
            outcomes.append("stored")
        except SubmissionRejected:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=one_click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "stored"]
    assert Submission.objects.filter(user=w.student, kind=Kind.SUBMIT).count() == 1
