"""Points by hand, one rule: a course's staff set or move a student's points on an assignment problem with a
reason (audited), and the gradebook page, its CSV, ``manage.py gradebook``, the student's course page and the
score the LMS receives all show the same figure, because they all read ``grades.grade_assignment``."""

from __future__ import annotations

import csv
import io

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from judge.courses import groups
from judge.courses.models import Adjustment, CourseAudit, GroupFormation
from judge.lti.models import LtiUser, ScorePost, ScoreStatus
from judge.submissions.models import Submission
from judge.submissions.signals import verdict_recorded
from tests.boards import recorded
from tests.courses import unlinked, world  # noqa: F401 (fixture)
from tests.lti import launch, lms  # noqa: F401 (fixture)
from tests.lti_platform import LEARNER
from tests.test_lti_grades import linked, send_all  # noqa: F401 (fixture)

PERSONAS = ("instructor", "ta", "student", "second", "stranger", "other_instructor")


def adjust(client: Client, course, student, problem, assignment, kind: str, points, reason: str = "hand-marked"):
    url = reverse("desk-adjust", args=[course.pk, student.pk, problem.slug])
    return client.post(url, {"assignment": assignment.pk, "kind": kind, "points": points, "reason": reason})


def csv_total(text: str, username: str, column: str) -> str:
    rows = list(csv.DictReader(io.StringIO(text)))
    return next(row[column] for row in rows if row["Student"] == username)


def test_five_readers_agree_on_points_given_by_hand(db, linked, django_capture_on_commit_callbacks):
    lms, course, assignment, problems, ada, instructor, _ = linked
    recorded(ada, problems[0])  # 1 point by date
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            adjust(
                instructor,
                course,
                ada,
                problems[0],
                assignment,
                "delta",
                "-0.25",
                "used a loop where the task asked for broadcasting",
            ).status_code
            == 302
        )
        adjust(instructor, course, ada, problems[1], assignment, "override", "0.5", "the right idea, one axis off")
    send_all()

    gradebook = unlinked(instructor.get(reverse("course-gradebook", args=[course.pk])).content.decode())
    row = gradebook[gradebook.index(f"<td>{ada.username}</td>") :].split("</tr>")[0]
    download = instructor.get(reverse("course-gradebook-csv", args=[course.pk])).content.decode()
    out = io.StringIO()
    call_command("gradebook", str(course.pk), stdout=out)
    student = Client()
    student.force_login(ada)
    page = student.get(reverse("assignment-detail", args=[course.pk, assignment.pk])).content.decode()

    assert '<td class="num adjusted">0.75 ✎</td>' in row and '<td class="num adjusted">0.5 ✎</td>' in row
    assert '<td class="num">1.25</td>' in row
    assert csv_total(download, ada.username, "Week 1") == "1.25"
    assert csv_total(out.getvalue(), ada.username, "Week 1") == "1.25"
    assert "Your points: <strong>1.25</strong> of 2." in page
    assert lms.scores_for("lms-ada")[-1]["scoreGiven"] == 1.25
    assert ScorePost.objects.get().status == ScoreStatus.SENT


def test_five_readers_agree_on_a_groups_credit_for_each_member(db, linked, django_capture_on_commit_callbacks):
    """bob's Submit counts for ada, his group's other member; the points ada is given by hand stay hers."""
    lms, course, assignment, problems, ada, instructor, link = linked
    launch(Client(), lms, lms.person("lms-bob", "Bob", "Babbage", [LEARNER]), link)
    bob = LtiUser.objects.get(sub="lms-bob").user
    iris = LtiUser.objects.get(sub="lms-teacher").user
    with django_capture_on_commit_callbacks(execute=True):
        groups.set_group_rule(assignment, iris, 2, GroupFormation.STAFF)
        groups.add_to_group(assignment, iris, [ada.username, bob.username])
        adjust(instructor, course, ada, problems[1], assignment, "delta", "0.25", "explained the group's mask")
    send_all()
    submission = recorded(bob, problems[0])
    verdict_recorded.send(sender=Submission, submission=submission)  # as the worker does: both scores queued
    send_all()

    gradebook = unlinked(instructor.get(reverse("course-gradebook", args=[course.pk])).content.decode())
    rows = {
        name: gradebook[gradebook.index(f"<td>{name}</td>") :].split("</tr>")[0]
        for name in (ada.username, bob.username)
    }
    download = instructor.get(reverse("course-gradebook-csv", args=[course.pk])).content.decode()
    out = io.StringIO()
    call_command("gradebook", str(course.pk), stdout=out)
    pages = {}
    for user in (ada, bob):
        student = Client()
        student.force_login(user)
        pages[user.username] = student.get(
            reverse("assignment-detail", args=[course.pk, assignment.pk])
        ).content.decode()

    assert '<td class="num">1</td><td class="num adjusted">0.25 ✎</td><td class="num">1.25</td>' in rows[ada.username]
    assert '<td class="num">1</td><td class="num">·</td><td class="num">1</td>' in rows[bob.username]
    for text in (download, out.getvalue()):
        assert (csv_total(text, ada.username, "Week 1"), csv_total(text, bob.username, "Week 1")) == ("1.25", "1")
    assert "Your points: <strong>1.25</strong> of 2." in pages[ada.username]
    assert "Your points: <strong>1</strong> of 2." in pages[bob.username]
    assert lms.scores_for("lms-ada")[-1]["scoreGiven"] == 1.25
    assert lms.scores_for("lms-bob")[-1]["scoreGiven"] == 1.0


def test_the_cap_and_zero_bound_what_hand_points_can_reach(client, world):
    first, second = world.problems
    recorded(world.student, first, at=world.assignment.due_at)
    client.force_login(world.instructor)
    adjust(client, world.course, world.student, first, world.assignment, "delta", "0.5", "elegant")
    adjust(client, world.course, world.student, second, world.assignment, "delta", "-3", "copied the starter")
    page = unlinked(client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode())
    row = page[page.index("<td>ada</td>") :].split("</tr>")[0]
    assert '<td class="num adjusted">1 ✎</td><td class="num adjusted">0 ✎</td><td class="num">1</td>' in row
    world.assignment.problem_cap = 1.5
    world.assignment.save()
    page = unlinked(client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode())
    assert '<td class="num adjusted">1.5 ✎</td>' in page[page.index("<td>ada</td>") :].split("</tr>")[0]


def test_the_instructor_sets_the_cap_on_the_assignment_form_and_blank_keeps_one(client, world):
    client.force_login(world.instructor)
    url = reverse("assignment-new", args=[world.course.pk])
    fields = {"problems": ["first_step"], "weight": "1", "late_rule": "none"}
    assert client.post(url, fields | {"title": "Bonus week", "problem_cap": "1.5"}).status_code == 302
    assert client.post(url, fields | {"title": "Plain week"}).status_code == 302
    caps = dict(world.course.assignments.values_list("title", "problem_cap"))
    assert (caps["Bonus week"], caps["Plain week"]) == (1.5, 1.0)


def test_the_courses_instructor_and_ta_adjust_and_nobody_else(client, world):
    first = world.problems[0]
    codes = {}
    for persona in PERSONAS:
        client.force_login(getattr(world, persona))
        codes[persona] = adjust(
            client, world.course, world.student, first, world.assignment, "override", "1", f"by {persona}"
        ).status_code
    assert codes == {
        "instructor": 302,
        "ta": 302,
        "student": 403,
        "second": 403,
        "stranger": 404,
        "other_instructor": 404,
    }
    assert Adjustment.objects.get().reason == "by ta"
    assert list(
        CourseAudit.objects.filter(action="adjusted points").values_list("user__username", flat=True).order_by("pk")
    ) == ["iris", "tariq"]


def test_an_adjustment_needs_a_reason_and_can_be_taken_back(client, world):
    first = world.problems[0]
    client.force_login(world.ta)
    response = adjust(client, world.course, world.student, first, world.assignment, "override", "1", reason="  ")
    assert "Say why" in client.get(response["Location"]).content.decode()
    assert not Adjustment.objects.exists()
    adjust(client, world.course, world.student, first, world.assignment, "override", "1")
    url = reverse("desk-adjust", args=[world.course.pk, world.student.pk, first.slug])
    client.post(url, {"assignment": world.assignment.pk, "remove": "1", "reason": "regraded instead"})
    assert not Adjustment.objects.exists()
    assert CourseAudit.objects.filter(summary__contains="removed the points by hand of ada").exists()
