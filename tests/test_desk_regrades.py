"""Regrade requests: a student asks, with a message, about a Submit of a released assignment; the course's staff
see a queue (open, answered, closed; by assignment and by who handles it), reply, and resolve with or without a
point change, which goes through the adjustment rule and its audit."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.models import Adjustment, CourseAudit, Notice, Release
from judge.regrades.models import RegradeRequest, RegradeStatus
from tests.courses import DUE, unlinked, world  # noqa: F401 (fixture)
from tests.desk_release import clock, graded  # noqa: F401 (fixture)


def ask(client, submission, assignment, message="The hidden test expects float32; the statement says float64."):
    return client.post(reverse("regrade-ask", args=[submission.pk]), {"assignment": assignment.pk, "message": message})


def act(client, course, request, action: str, message: str = "", **fields):
    return client.post(
        reverse("regrade-detail", args=[course.pk, request.pk]), {"action": action, "message": message, **fields}
    )


def test_a_student_asks_the_ta_answers_then_resolves_with_half_a_point(client, world):
    w = world
    submission = graded(w.student, w.problems[0], Verdict.WRONG_ANSWER, at=DUE - timedelta(hours=1))
    client.force_login(w.student)
    assert "Ask for a regrade" in client.get(f"/submissions/{submission.pk}/").content.decode()
    assert ask(client, submission, w.assignment).status_code == 302
    assert (
        "already have an open regrade request"
        in client.get(ask(client, submission, w.assignment)["Location"]).content.decode()
    )
    request = RegradeRequest.objects.get()
    assert "Ask for a regrade" not in client.get(f"/submissions/{submission.pk}/").content.decode()

    client.force_login(w.ta)
    queue = client.get(reverse("course-regrades", args=[w.course.pk])).content.decode()
    assert f'data-request="{request.pk}"' in queue and "Open (1)" in queue
    act(client, w.course, request, "answer", "Looking at it with the instructor.")
    request.refresh_from_db()
    assert (request.status, request.assignee) == (RegradeStatus.ANSWERED, w.ta)

    client.force_login(w.student)
    home = client.get(reverse("course-home", args=[w.course.pk])).content.decode()
    assert "The course&#x27;s staff answered your regrade request on First step." in home
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "Looking at it with the instructor." in page
    client.post(reverse("regrade-follow-up", args=[request.pk]), {"message": "Thank you."})
    request.refresh_from_db()
    assert request.status == RegradeStatus.OPEN

    client.force_login(w.ta)
    act(
        client,
        w.course,
        request,
        "resolve",
        "The test's dtype was wrong; half a point back.",
        change="1",
        kind="delta",
        points="0.5",
    )
    request.refresh_from_db()
    assert request.status == RegradeStatus.CLOSED
    adjustment = Adjustment.objects.get()
    assert (adjustment.points, adjustment.by) == (0.5, w.ta)
    assert adjustment.reason.startswith(f"regrade request #{request.pk}: The test's dtype was wrong")
    assert CourseAudit.objects.filter(action="adjusted points", summary__contains="regrade request").exists()
    book = unlinked(client.get(reverse("course-gradebook", args=[w.course.pk])).content.decode())
    assert '<td class="num adjusted">0.5 ✎</td>' in book[book.index("<td>ada</td>") :].split("</tr>")[0]
    client.force_login(w.student)
    assert (
        "was resolved (points moved by 0.5)" in client.get(reverse("course-home", args=[w.course.pk])).content.decode()
    )


def test_resolving_without_a_change_leaves_the_points_alone(client, world):
    w = world
    submission = graded(w.student, w.problems[0], Verdict.WRONG_ANSWER, at=DUE - timedelta(hours=1))
    client.force_login(w.student)
    ask(client, submission, w.assignment)
    client.force_login(w.instructor)
    act(client, w.course, RegradeRequest.objects.get(), "resolve", "The test is right: axis 1, as stated.")
    assert RegradeRequest.objects.get().status == RegradeStatus.CLOSED and not Adjustment.objects.exists()


def test_no_regrade_before_release_nor_on_someone_elses_work(client, world, clock):
    w = world
    w.assignment.release = Release.AFTER_DUE
    w.assignment.save()
    clock(DUE - timedelta(days=1))
    held = graded(w.student, w.problems[0])
    client.force_login(w.student)
    assert "Ask for a regrade" not in client.get(f"/submissions/{held.pk}/").content.decode()
    refused = client.get(ask(client, held, w.assignment)["Location"]).content.decode()
    assert "in an assignment whose grades are released" in refused
    client.force_login(w.second)
    assert ask(client, held, w.assignment).status_code == 404
    assert not RegradeRequest.objects.exists()


def test_an_empty_message_is_refused(client, world):
    w = world
    submission = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    client.force_login(w.student)
    answer = client.get(ask(client, submission, w.assignment, "   ")["Location"]).content.decode()
    assert "Write a message" in answer and not RegradeRequest.objects.exists()


def test_the_queue_filters_by_status_assignment_and_who_handles_it(client, world):
    w = world
    first = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    second = graded(w.second, w.problems[1], at=DUE - timedelta(hours=1))
    for student, submission in ((w.student, first), (w.second, second)):
        client.force_login(student)
        ask(client, submission, w.assignment)
    mine, theirs = RegradeRequest.objects.order_by("pk")
    client.force_login(w.ta)
    act(client, w.course, mine, "take")
    url = reverse("course-regrades", args=[w.course.pk])
    page = client.get(url, {"assignee": w.ta.pk}).content.decode()
    assert f'data-request="{mine.pk}"' in page and f'data-request="{theirs.pk}"' not in page
    page = client.get(url, {"assignment": w.assignment.pk, "status": "closed"}).content.decode()
    assert "data-request" not in page and "No closed requests with these filters." in page


def test_who_sees_the_queue_and_answers(client, world, django_user_model):
    w = world
    submission = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    client.force_login(w.student)
    ask(client, submission, w.assignment)
    request = RegradeRequest.objects.get()
    staffer = django_user_model.objects.get(username="staffer")
    codes = {}
    for name, user in [
        ("instructor", w.instructor),
        ("ta", w.ta),
        ("student", w.student),
        ("second", w.second),
        ("stranger", w.stranger),
        ("other_instructor", w.other_instructor),
        ("site staff", staffer),
    ]:
        client.force_login(user)
        codes[name] = (
            client.get(reverse("course-regrades", args=[w.course.pk])).status_code,
            act(client, w.course, request, "answer", f"from {name}").status_code,
        )
    assert codes == {
        "instructor": (200, 302),
        "ta": (200, 302),
        "student": (403, 403),
        "second": (403, 403),
        "stranger": (404, 404),
        "other_instructor": (404, 404),
        "site staff": (404, 404),
    }
    assert list(request.messages.filter(from_staff=True).values_list("body", flat=True)) == [
        "from instructor",
        "from ta",
    ]
    assert Notice.objects.filter(user=w.student).count() == 2
