"""Release when the instructor chooses: until an assignment's grades are released for a student, every place they
could read them (the submission page, its status fragment, the API and the CLI's rendering of it, their history,
the problem list, the editorial, the course pages) says the Submit was received and graded on the visible
examples and when grades come, and nothing more; the LMS gets no score. Then everything appears, and the LMS gets
every score once."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses import release
from judge.courses.models import Override, Release
from judge.lti import scores
from judge.lti.models import ScorePost, ScoreStatus
from judge.problems.models import Problem
from judge.submissions.models import Submission
from judge.submissions.signals import verdict_recorded
from judge.tokens.services import create_token
from npjudge.notebook import submission_html
from npjudge.render import render
from tests.courses import DUE, world  # noqa: F401 (fixture)
from tests.desk_release import HIDDEN_TEST, MESSAGE, MISTAKE, clock, graded  # noqa: F401 (fixture)
from tests.lti import lms  # noqa: F401 (fixture)
from tests.test_lti_grades import linked, send_all  # noqa: F401 (fixture)

EDITORIAL = "Subtract the row maximum before exp."
GRADE_WORDS = ("Wrong answer", "Accepted", MESSAGE, HIDDEN_TEST, MISTAKE, "1.00 credit", "Your points")


def after_due(w) -> None:
    w.assignment.release = Release.AFTER_DUE
    w.assignment.save()
    Problem.objects.filter(pk=w.problems[0].pk).update(
        editorial_md=EDITORIAL,
        spec={"function": "f", "params": ["x"], "time_limit_s": 2.0, "memory_mb": 256, "rtol": 1e-6, "atol": 1e-6},
    )


def student_views(client: Client, w, submission: Submission) -> dict[str, str]:
    """Every page and API answer where the student could read this Submit's grade."""
    client.force_login(w.student)
    token = create_token(w.student, "cli", ["read"])[1]
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    one = api.get(f"/api/v1/submissions/{submission.pk}").json()
    cli = io.StringIO()
    render(one, cli)
    slug = w.problems[0].slug
    return {
        "page": client.get(f"/submissions/{submission.pk}/").content.decode(),
        "status": client.get(f"/submissions/{submission.pk}/status/").content.decode(),
        "api": json.dumps(one),
        "api list": json.dumps(api.get("/api/v1/submissions").json()),
        "api events": b"".join(api.get(f"/api/v1/submissions/{submission.pk}/events").streaming_content).decode(),
        "api problem": json.dumps(api.get(f"/api/v1/problems/{slug}").json()),
        "api problems": json.dumps(api.get("/api/v1/problems").json()),
        "cli": cli.getvalue(),
        "notebook": submission_html(one),
        "problem page": client.get(f"/problems/{slug}/").content.decode(),
        "history": client.get(f"/problems/{slug}/history/").content.decode(),
        "assignment": client.get(reverse("assignment-detail", args=[w.course.pk, w.assignment.pk])).content.decode(),
    }


def test_before_the_due_time_no_path_shows_the_grade_and_after_it_every_path_does(client, world, clock):
    w = world
    after_due(w)
    now = clock(DUE - timedelta(days=1))
    wrong = graded(w.student, w.problems[0], Verdict.WRONG_ANSWER)
    right = graded(w.student, w.problems[0], Verdict.ACCEPTED)

    views = student_views(client, w, wrong)
    for where, text in views.items():
        leaked = [word for word in GRADE_WORDS if word in text]
        assert not leaked, f"{where} shows {leaked}"
        assert EDITORIAL not in text, where
    assert all("Received and graded" in views[where] for where in ("page", "cli", "notebook"))
    assert "Grades for Week 1 are released after the due time" in views["page"]
    assert "example_1" in views["status"]  # the visible example, and how it did
    assert json.loads(views["api"])["verdict"] == "" and json.loads(views["api"])["held"]
    assert all(s["verdict"] == "" for s in json.loads(views["api list"]))
    assert "Accepted" not in views["history"] and "Graded; released later" in views["history"]
    assert '"solved": true' not in views["api problems"]
    assert "The editorial opens when your grades for Week 1 are released" in views["problem page"]
    assert "grade not released yet" in views["assignment"] and "Your points" not in views["assignment"]
    assert "Accepted" not in student_views(client, w, right)["page"]

    now.move_to(DUE + timedelta(minutes=1))
    views = student_views(client, w, wrong)
    assert "Wrong answer" in views["page"] and MISTAKE in views["page"] and HIDDEN_TEST in views["status"]
    assert json.loads(views["api"])["verdict"] == Verdict.WRONG_ANSWER and MISTAKE in views["cli"]
    assert EDITORIAL in views["problem page"] and '"solved": true' in views["api problems"]
    assert "Your points: <strong>1</strong> of 2." in views["assignment"]


def test_an_extension_holds_one_students_grades_until_their_own_due_time(client, world, clock):
    w = world
    after_due(w)
    clock(DUE + timedelta(hours=1))
    Override.objects.create(
        assignment=w.assignment,
        user=w.student,
        due_at=DUE + timedelta(days=1),
        closes_at=DUE + timedelta(days=2),
        reason="illness",
    )
    theirs, grace = graded(w.student, w.problems[0]), graded(w.second, w.problems[0])
    client.force_login(w.student)
    assert "Received and graded" in client.get(f"/submissions/{theirs.pk}/").content.decode()
    client.force_login(w.second)
    assert "Wrong answer" in client.get(f"/submissions/{grace.pk}/").content.decode()


def test_the_courses_staff_read_held_work_in_full(client, world, clock):
    w = world
    after_due(w)
    clock(DUE - timedelta(days=1))
    submission = graded(w.student, w.problems[0])
    client.force_login(w.ta)
    page = client.get(reverse("desk-submission", args=[w.course.pk, submission.pk])).content.decode()
    assert "Wrong answer" in page and HIDDEN_TEST in page


def test_only_the_instructor_presses_release(client, world, django_user_model):
    w = world
    w.assignment.release = Release.MANUAL
    w.assignment.save()
    staffer = django_user_model.objects.get(username="staffer")
    codes = {}
    for persona, user in [
        ("student", w.student),
        ("ta", w.ta),
        ("stranger", w.stranger),
        ("other_instructor", w.other_instructor),
        ("site staff", staffer),
        ("instructor", w.instructor),
    ]:
        client.force_login(user)
        codes[persona] = client.post(reverse("assignment-release", args=[w.course.pk, w.assignment.pk])).status_code
    assert codes == {
        "student": 403,
        "ta": 403,
        "stranger": 404,
        "other_instructor": 404,
        "site staff": 404,
        "instructor": 302,
    }
    w.assignment.refresh_from_db()
    assert w.assignment.released_at is not None
    assert w.course.audit.filter(action=release.RELEASED).count() == 1


def test_grades_released_after_the_due_time_need_a_due_time(client, world):
    client.force_login(world.instructor)
    response = client.post(
        reverse("assignment-new", args=[world.course.pk]),
        {
            "title": "Open-ended",
            "problems": ["first_step"],
            "weight": "1",
            "late_rule": "none",
            "release": Release.AFTER_DUE,
        },
    )
    assert response.status_code == 400
    assert "Grades released after the due time need a due time." in response.content.decode()
    assert not world.course.assignments.filter(title="Open-ended").exists()


def test_the_lms_gets_no_score_before_release_and_every_score_once_at_release(
    linked, django_capture_on_commit_callbacks
):
    lms, course, assignment, problems, ada, instructor, _ = linked
    assignment.release = Release.MANUAL
    assignment.save()
    submission = graded(ada, problems[0], Verdict.ACCEPTED)
    verdict_recorded.send(sender=Submission, submission=submission)
    send_all()
    assert lms.scores_for("lms-ada") == []
    assert ScorePost.objects.get().status == ScoreStatus.HELD
    assert scores.resend_stalled() == 0 and scores.send_released() == 0  # a held row is not sent by the sweeps

    url = reverse("assignment-release", args=[course.pk, assignment.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert instructor.post(url).status_code == 302
    send_all()
    assert [s["scoreGiven"] for s in lms.scores_for("lms-ada")] == [1.0]
    with django_capture_on_commit_callbacks(execute=True):
        instructor.post(url)  # pressed again: released already, nothing sent again
    send_all()
    assert len(lms.scores_for("lms-ada")) == 1


def test_a_release_that_comes_with_the_due_time_reaches_the_lms_through_the_sweep(linked, clock):
    lms, _course, assignment, problems, ada, _, _ = linked
    assignment.release, assignment.due_at = Release.AFTER_DUE, DUE
    assignment.save()
    now = clock(DUE - timedelta(hours=2))
    verdict_recorded.send(sender=Submission, submission=graded(ada, problems[0], Verdict.ACCEPTED))
    send_all()
    assert lms.scores_for("lms-ada") == [] and scores.send_released() == 0
    now.move_to(DUE + timedelta(minutes=1))
    assert scores.send_released() == 1
    send_all()
    assert [s["scoreGiven"] for s in lms.scores_for("lms-ada")] == [1.0]
    assert scores.send_released() == 0


@pytest.mark.parametrize("mode", [Release.AT_ONCE])
def test_at_once_is_todays_behaviour(client, world, mode):
    world.assignment.release = mode
    world.assignment.save()
    submission = graded(world.student, world.problems[0])
    client.force_login(world.student)
    assert "Wrong answer" in client.get(f"/submissions/{submission.pk}/").content.decode()
