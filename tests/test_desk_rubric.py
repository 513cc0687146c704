"""Rubrics under the one rule: the instructor writes items with points (+ or -) per assignment problem, staff tick
them on a student's submission, and the gradebook, its CSV, ``manage.py gradebook``, the student's course page
and the LMS all read automatic credit + ticked items, then points by hand, then the cap."""

from __future__ import annotations

import io

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.models import CourseAudit, Membership, Role, RubricItem, RubricMark
from judge.submissions.models import Kind, Status, Submission
from tests.boards import recorded
from tests.courses import unlinked, world  # noqa: F401 (fixture)
from tests.lti import lms  # noqa: F401 (fixture)
from tests.test_desk_points import adjust, csv_total
from tests.test_lti_grades import linked, send_all  # noqa: F401 (fixture)


def add_item(client: Client, course, assignment, problem, label: str, points: str):
    return client.post(
        reverse("assignment-rubric", args=[course.pk, assignment.pk]),
        {"problem": problem.slug, "label": label, "points": points},
    )


def tick(client: Client, course, assignment, submission, *items: RubricItem):
    return client.post(
        reverse("desk-rubric", args=[course.pk, submission.pk]),
        {"assignment": assignment.pk, "item": [i.pk for i in items]},
    )


def attempt(user, problem, verdict=Verdict.WRONG_ANSWER) -> Submission:
    return Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.SUBMIT,
        code="x = 1\n",
        status=Status.DONE,
        verdict=verdict,
    )


def test_five_readers_agree_on_rubric_items_then_points_by_hand_then_the_cap(
    linked, django_capture_on_commit_callbacks
):
    lms, course, assignment, problems, ada, instructor, _ = linked
    assignment.problem_cap = 1.5
    assignment.save()
    ta = Client()
    ta_user = type(ada).objects.create_user("tariq")
    Membership.objects.create(course=course, user=ta_user, role=Role.TA)
    ta.force_login(ta_user)
    solved = recorded(ada, problems[0])  # 1 point by date
    tried = attempt(ada, problems[1])  # 0 by date
    with django_capture_on_commit_callbacks(execute=True):
        add_item(instructor, course, assignment, problems[0], "Vectorised, no Python loop", "0.5")
        add_item(instructor, course, assignment, problems[1], "Right idea, one axis off", "0.5")
        add_item(instructor, course, assignment, problems[1], "Mutates its input", "-0.25")
        elegant, idea, mutates = RubricItem.objects.order_by("pk")
        assert tick(ta, course, assignment, solved, elegant).status_code == 302
        tick(ta, course, assignment, tried, idea, mutates)
        adjust(ta, course, ada, problems[0], assignment, "delta", "0.25", "clear comments")  # 1.75: capped to 1.5
        adjust(ta, course, ada, problems[1], assignment, "delta", "0.25", "good test cases")  # 0.5
    send_all()

    gradebook = unlinked(instructor.get(reverse("course-gradebook", args=[course.pk])).content.decode())
    row = gradebook[gradebook.index(f"<td>{ada.username}</td>") :].split("</tr>")[0]
    download = instructor.get(reverse("course-gradebook-csv", args=[course.pk])).content.decode()
    out = io.StringIO()
    call_command("gradebook", str(course.pk), "--per-problem", stdout=out)
    student = Client()
    student.force_login(ada)
    page = student.get(reverse("assignment-detail", args=[course.pk, assignment.pk])).content.decode()

    assert '<td class="num adjusted">1.5 ✎</td><td class="num adjusted">0.5 ✎</td><td class="num">2</td>' in row
    assert csv_total(download, ada.username, "Week 1") == "2"
    assert csv_total(out.getvalue(), ada.username, "Week 1: first_problem") == "1.5"
    assert csv_total(out.getvalue(), ada.username, "Week 1: second_problem") == "0.5"
    assert "Your points: <strong>2</strong> of 2." in page
    assert "Right idea, one axis off (+0.5)" in page and "Mutates its input (-0.25)" in page
    assert lms.scores_for("lms-ada")[-1]["scoreGiven"] == 2.0


def test_unticking_takes_the_points_back_and_every_change_is_audited(client, world):
    first = world.problems[0]
    submission = recorded(world.student, first, at=world.assignment.due_at)
    client.force_login(world.instructor)
    add_item(client, world.course, world.assignment, first, "Copied the starter's loop", "-0.5")
    item = RubricItem.objects.get()
    tick(client, world.course, world.assignment, submission, item)
    page = unlinked(client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode())
    assert '<td class="num adjusted">0.5 ✎</td>' in page[page.index("<td>ada</td>") :].split("</tr>")[0]
    tick(client, world.course, world.assignment, submission)
    assert not RubricMark.objects.exists()
    page = unlinked(client.get(reverse("course-gradebook", args=[world.course.pk])).content.decode())
    row = page[page.index("<td>ada</td>") :].split("</tr>")[0]
    assert '<td class="num">1</td><td class="num">·</td><td class="num">1</td>' in row
    summaries = list(CourseAudit.objects.filter(action="rubric").order_by("pk").values_list("summary", flat=True))
    assert summaries[0] == "first_step in 'Week 1': added \"Copied the starter's loop\" (-0.5)"
    assert "ticked Copied the starter's loop (-0.5)" in summaries[1] and summaries[2].endswith("ticked none")


def test_a_rubric_item_needs_words_and_points(client, world):
    client.force_login(world.instructor)
    first = world.problems[0]
    answer = add_item(client, world.course, world.assignment, first, "  ", "0")
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Describe the item in 1 to 200 characters" in text and "other than 0" in text
    assert add_item(client, world.course, world.assignment, first, "Fine", "lots").status_code == 400
    assert not RubricItem.objects.exists()


def test_the_instructor_writes_the_rubric_and_the_courses_staff_tick_it(client, world, django_user_model):
    first = world.problems[0]
    submission = attempt(world.student, first)
    staffer = django_user_model.objects.get(username="staffer")
    personas = [
        ("instructor", world.instructor),
        ("ta", world.ta),
        ("student", world.student),
        ("stranger", world.stranger),
        ("other_instructor", world.other_instructor),
        ("site staff", staffer),
    ]
    writes, ticks = {}, {}
    for name, user in personas:
        client.force_login(user)
        writes[name] = add_item(client, world.course, world.assignment, first, f"by {name}", "0.25").status_code
    item = RubricItem.objects.get()
    for name, user in personas:
        client.force_login(user)
        ticks[name] = tick(client, world.course, world.assignment, submission, item).status_code
    assert writes == {
        "instructor": 302,
        "ta": 403,
        "student": 403,
        "stranger": 404,
        "other_instructor": 404,
        "site staff": 404,
    }
    assert ticks == {
        "instructor": 302,
        "ta": 302,
        "student": 403,
        "stranger": 404,
        "other_instructor": 404,
        "site staff": 404,
    }
    assert item.label == "by instructor" and RubricMark.objects.get().by == world.instructor
