"""The grading desk, reading: a course's instructor and TA open any student's attempts on the course's problems,
a submission with its hidden tests in full, and the change between two attempts; every page they open is in the
course's audit log. A student, another course's instructor and site staff outside the course get nothing here,
and a student still never sees hidden-test detail on their own submission page."""

from __future__ import annotations

import numpy as np
import pytest
from django.urls import reverse

from engine.arrays import pack_inputs, to_npy
from engine.verdicts import TestStatus, Verdict
from judge.courses.models import CourseAudit
from judge.problems.models import TestCase
from judge.submissions.models import Kind, Status, Submission
from tests.boards import quick_problem
from tests.courses import world  # noqa: F401 (fixture)

PERSONAS = ("instructor", "ta", "student", "second", "stranger", "other_instructor", "site_staff")
HIDDEN_INPUT = np.array([[7.25, -3.5]])
HIDDEN_EXPECTED = np.array([1.125, 9.875])


def graded(user, problem, code: str, verdict: str = Verdict.WRONG_ANSWER) -> Submission:
    """A graded Submit whose hidden test failed on its values, as the engine stores it (no output kept)."""
    failed = {
        "name": "hidden_1",
        "hidden": True,
        "status": TestStatus.WRONG_VALUE,
        "message": "values differ from the expected ones at some positions",
        "checks": {"values": "failed"},
        "detail": {
            "mismatches": 1,
            "total": 2,
            "first_mismatch": [1],
            "max_abs_error": 4.5,
            "max_rel_error": 0.456,
            "rtol": 1e-5,
            "atol": 1e-8,
        },
    }
    return Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.SUBMIT,
        code=code,
        status=Status.DONE,
        verdict=verdict,
        results=[failed],
    )


@pytest.fixture
def work(world, django_user_model):
    problem = world.problems[0]
    TestCase.objects.create(
        test_set_id=problem.current_test_set_id,
        index=0,
        name="hidden_1",
        hidden=True,
        inputs=pack_inputs({"x": to_npy(HIDDEN_INPUT)}),
        expected=to_npy(HIDDEN_EXPECTED),
    )
    first = graded(world.student, problem, "def f(x):\n    return x.sum(axis=0)\n")
    second = graded(world.student, problem, "def f(x):\n    return x.mean(axis=0)\n")
    world.site_staff = django_user_model.objects.get(username="staffer")
    return world, problem, first, second


def pages(w, problem, first, second) -> dict[str, str]:
    c = w.course.pk
    return {
        "attempts": reverse("desk-attempts", args=[c, w.student.pk, problem.slug]),
        "submission": reverse("desk-submission", args=[c, second.pk]),
        "diff": reverse("desk-diff", args=[c]) + f"?a={first.pk}&b={second.pk}",
    }


def test_only_the_courses_instructor_and_ta_open_a_students_work(client, work):
    w, problem, first, second = work
    seen = {}
    for persona in PERSONAS:
        client.force_login(getattr(w, persona))
        for page, url in pages(w, problem, first, second).items():
            seen[(persona, page)] = client.get(url).status_code
    expected = {
        "instructor": 200,
        "ta": 200,
        "student": 403,
        "second": 403,
        "stranger": 404,
        "other_instructor": 404,
        "site_staff": 404,
    }
    assert seen == {(persona, page): expected[persona] for persona, page in seen}


def test_site_staff_keep_todays_access_through_the_submission_page(client, work):
    w, _, _, second = work
    client.force_login(w.site_staff)
    assert client.get(reverse("submission-detail", args=[second.pk])).status_code == 200
    client.force_login(w.instructor)  # a course's instructor reads it on the desk, not on the student's page
    assert client.get(reverse("submission-detail", args=[second.pk])).status_code == 404


def test_staff_see_what_the_hidden_test_held_and_the_student_does_not(client, work):
    w, _, _, second = work
    client.force_login(w.ta)
    page = client.get(reverse("desk-submission", args=[w.course.pk, second.pk])).content.decode()
    assert "shown to the course's staff only" in page
    assert "7.25" in page and "9.875" in page  # the hidden input and expected output
    assert "max absolute error <strong>4.5</strong>" in page
    assert "return x.mean(axis=0)" in page
    client.force_login(w.student)
    own = client.get(reverse("submission-detail", args=[second.pk])).content.decode()
    assert "values differ from the expected ones" in own
    assert "7.25" not in own and "9.875" not in own and "4.5</strong>" not in own and "staff only" not in own


def test_staff_see_the_draw_of_the_hidden_test_that_submission_was_graded_on(client, work):
    w, problem, _, second = work
    TestCase.objects.create(
        test_set_id=problem.current_test_set_id,
        index=1,
        name="hidden_1",
        hidden=True,
        variant=1,
        inputs=pack_inputs({"x": to_npy(np.array([[6.5, 0.75]]))}),
        expected=to_npy(np.array([3.625, 2.375])),
    )
    Submission.objects.filter(pk=second.pk).update(draw=0)  # the pool's only draw, in place of the published case
    client.force_login(w.instructor)
    page = client.get(reverse("desk-submission", args=[w.course.pk, second.pk])).content.decode()
    assert "6.5" in page and "3.625" in page and "7.25" not in page


def test_the_timeline_lists_every_attempt_and_the_diff_shows_what_changed(client, work):
    w, problem, first, second = work
    run = Submission.objects.create(
        user=w.student,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.RUN,
        code="def f(x):\n    return x\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )
    graded(w.second, problem, "def f(x):\n    return 0\n")  # another student's: not on ada's timeline
    client.force_login(w.instructor)
    page = client.get(pages(w, problem, first, second)["attempts"]).content.decode()
    shown = [int(part.split('"')[0]) for part in page.split('data-attempt="')[1:]]
    assert shown == [first.pk, second.pk, run.pk]
    diff = client.get(pages(w, problem, first, second)["diff"]).content.decode()
    assert (
        '<span class="removed">-    return x.sum(axis=0)' in diff
        and '<span class="added">+    return x.mean(axis=0)' in diff
    )


def test_a_diff_across_two_students_or_outside_the_course_is_refused(client, work):
    w, problem, first, _ = work
    others = graded(w.second, problem, "def f(x):\n    return 0\n")
    elsewhere = graded(w.student, quick_problem("elsewhere"), "x = 1\n")  # in none of the course's assignments
    client.force_login(w.instructor)
    diff = reverse("desk-diff", args=[w.course.pk])
    assert client.get(diff + f"?a={first.pk}&b={others.pk}").status_code == 400
    assert client.get(reverse("desk-submission", args=[w.course.pk, elsewhere.pk])).status_code == 404


def test_every_reading_is_in_the_courses_audit_log(client, work):
    w, problem, first, second = work
    client.force_login(w.ta)
    for url in pages(w, problem, first, second).values():
        client.get(url)
    client.force_login(w.other_instructor)
    client.get(pages(w, problem, first, second)["submission"])  # refused: nothing to record
    rows = list(
        CourseAudit.objects.filter(course=w.course, action="read work")
        .order_by("pk")
        .values_list("user__username", "summary")
    )
    assert rows == [
        ("tariq", f"tariq read ada's attempts on {problem.slug}"),
        ("tariq", f"tariq read ada's submission #{second.pk} on {problem.slug}"),
        ("tariq", f"tariq read ada's change from #{first.pk} to #{second.pk} on {problem.slug}"),
    ]


def test_a_gradebook_and_a_matrix_cell_open_that_students_attempts(client, work):
    w, problem, _, _ = work
    client.force_login(w.ta)
    attempts = reverse("desk-attempts", args=[w.course.pk, w.student.pk, problem.slug])
    gradebook = client.get(reverse("course-gradebook", args=[w.course.pk])).content.decode()
    matrix = client.get(reverse("assignment-progress", args=[w.course.pk, w.assignment.pk])).content.decode()
    assert f'href="{attempts}"' in gradebook and f'href="{attempts}"' in matrix
    assert client.get(attempts).status_code == 200
