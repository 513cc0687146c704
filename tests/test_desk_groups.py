"""Groups on an assignment: a member's Submit counts for every member, each against their own dates; students form
groups with a code (up to N, never N + 1, even when two take the last place at once) or the instructor forms them;
membership is fixed for students once the group has submitted; every change is in the course's audit log; a member
reads the group's Submits, with their verdicts held until the grades are released for them."""

from __future__ import annotations

import csv
import io
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses import desk, groups, release, services
from judge.courses.models import (
    CourseAudit,
    GroupFormation,
    GroupMember,
    Membership,
    Release,
    Role,
    StudentGroup,
    TimedStart,
)
from judge.courses.services import CourseError
from tests.boards import recorded
from tests.courses import DUE, PASSWORD, make_world, unlinked, world  # noqa: F401 (fixture)

HOUR = timedelta(hours=1)
PERSONAS = ("instructor", "ta", "student", "second", "stranger", "other_instructor")


def students_form_groups(w, size: int = 2) -> None:
    groups.set_group_rule(w.assignment, w.instructor, size, GroupFormation.STUDENTS)
    w.assignment.refresh_from_db()


def another_student(w, django_user_model, name: str = "hal"):
    user = django_user_model.objects.create_user(name, f"{name}@example.org", PASSWORD)
    Membership.objects.create(course=w.course, user=user, role=Role.STUDENT)
    return user


def as_group(client, w, user, **form):
    client.force_login(user)
    return client.post(reverse("assignment-my-group", args=[w.course.pk, w.assignment.pk]), form, follow=True)


def gradebook_row(client, w, username: str) -> str:
    client.force_login(w.instructor)
    page = unlinked(client.get(reverse("course-gradebook", args=[w.course.pk])).content.decode())
    return page[page.index(f"<td>{username}</td>") :].split("</tr>")[0]


def csv_points(client, w) -> dict[str, str]:
    client.force_login(w.instructor)
    text = client.get(reverse("course-gradebook-csv", args=[w.course.pk])).content.decode()
    return {row["Student"]: row["Week 1"] for row in csv.DictReader(io.StringIO(text))}


def test_a_submit_of_one_member_counts_for_every_member_of_the_group(client, world, django_user_model):
    hal = another_student(world, django_user_model)
    students_form_groups(world)
    created = as_group(client, world, world.student, create="1").content.decode()
    code = StudentGroup.objects.get().code
    assert f"Others join it with the code {code}." in created
    assert f'Others join with the code <code id="group-code">{code}</code>.' in created
    assert "You joined group" in as_group(client, world, world.second, code=code.lower()).content.decode()
    recorded(world.second, world.problems[0], at=DUE - HOUR)

    assert '<td class="num">1</td><td class="num">·</td><td class="num">1</td>' in gradebook_row(client, world, "ada")
    assert '<td class="num">1</td><td class="num">·</td><td class="num">1</td>' in gradebook_row(client, world, "grace")
    assert csv_points(client, world) == {"ada": "1", "grace": "1", "hal": "0"}
    client.force_login(world.student)
    page = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "1.00 credit, from your group's Submit" in page
    assert "Your points: <strong>1</strong> of 2." in page
    assert "<strong>ada</strong>, <strong>grace</strong> (2 of at most 2)" in page
    assert hal.pk not in groups.mates_on_problem(world.second.pk, world.problems[0].pk)


def test_each_member_is_weighed_against_their_own_dates(client, world):
    """ada's extension is hers: grace's Submit in the late window is full credit for ada, half for grace."""
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    services.set_override(
        world.assignment, world.instructor, {"due_at": DUE + timedelta(days=1)}, "ill", student=world.student
    )
    recorded(world.second, world.problems[0], at=DUE + 3 * HOUR)
    assert csv_points(client, world) == {"ada": "1", "grace": "0.5"}
    assert '<td class="num late">0.5 L</td>' in gradebook_row(client, world, "grace")


def test_a_full_group_refuses_the_next_student(client, world, django_user_model):
    hal = another_student(world, django_user_model)
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    refused = as_group(client, world, hal, code=group.code).content.decode()
    assert "This group is full: it has 2 members already." in refused
    assert "Group code" in refused  # still offered the forms
    assert GroupMember.objects.filter(group=group).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_students_taking_the_last_place_at_once_leave_the_group_at_n(django_user_model):
    """Five groups of two with one place left each, and two students racing for each place: every join is a
    transaction of its own on its own connection, started together."""
    w = make_world(django_user_model)
    students_form_groups(w, size=2)
    codes = [
        groups.create_group(w.assignment, another_student(w, django_user_model, f"founder{i}")).code for i in range(5)
    ]
    racers = [(another_student(w, django_user_model, f"racer{i}"), codes[i // 2]) for i in range(10)]
    outcomes: list[str] = []
    start = threading.Barrier(len(racers))

    def join(student, code: str) -> None:
        start.wait()
        try:
            groups.join_group(w.assignment, student, code)
            outcomes.append("joined")
        except CourseError as error:
            outcomes.append(error.messages[0])
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=racer) for racer in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [GroupMember.objects.filter(group__code=code).count() for code in codes] == [2] * 5, outcomes
    assert sorted(outcomes) == sorted(["joined"] * 5 + ["This group is full: it has 2 members already."] * 5)


def test_students_cannot_leave_or_join_once_the_group_has_submitted_but_the_instructor_can_change_it(
    client, world, django_user_model
):
    hal = another_student(world, django_user_model)
    students_form_groups(world, size=3)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    recorded(world.student, world.problems[0], Verdict.WRONG_ANSWER, at=DUE - 2 * HOUR)  # counts, though wrong
    recorded(world.student, world.problems[0], at=DUE - HOUR)

    left = as_group(client, world, world.second, leave="1").content.decode()
    assert "Groups are fixed once a member has submitted" in left
    assert "Groups are fixed once" in as_group(client, world, hal, code=group.code).content.decode()
    assert csv_points(client, world) == {"ada": "1", "grace": "1", "hal": "0"}

    client.force_login(world.instructor)
    member = GroupMember.objects.get(user=world.second)
    client.post(reverse("assignment-groups", args=[world.course.pk, world.assignment.pk]), {"remove": member.pk})
    assert csv_points(client, world) == {"ada": "1", "grace": "0", "hal": "0"}


def test_a_practice_submit_before_the_opening_does_not_fix_the_group(world):
    students_form_groups(world)
    recorded(world.student, world.problems[0], at=world.assignment.opens_at - HOUR)
    group = groups.create_group(world.assignment, world.student)
    groups.leave_group(world.assignment, world.student)
    assert not StudentGroup.objects.filter(pk=group.pk).exists()  # nobody left in it


def test_the_instructor_forms_the_groups_and_students_cannot_form_their_own(client, world, django_user_model):
    hal = another_student(world, django_user_model)
    groups.set_group_rule(world.assignment, world.instructor, 2, GroupFormation.STAFF)
    client.force_login(world.instructor)
    url = reverse("assignment-groups", args=[world.course.pk, world.assignment.pk])
    assert client.post(url, {"students": "ADA, grace"}).status_code == 302
    refused = client.post(url, {"students": "hal ada sam"})
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "sam is not a student of this course." in text and "ada is in group" in text
    page = client.get(url).content.decode()
    assert '<p id="alone">hal</p>' in page

    created = as_group(client, world, hal, create="1").content.decode()
    assert "The course&#x27;s staff form the groups of this assignment" in created
    assert not GroupMember.objects.filter(user=hal).exists()
    mine = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "you are in none yet" in mine


def test_every_membership_change_is_in_the_course_audit_log(client, world, django_user_model):
    hal = another_student(world, django_user_model)
    students_form_groups(world, size=3)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    groups.leave_group(world.assignment, world.second)
    groups.add_to_group(world.assignment, world.instructor, ["hal"], group)
    groups.remove_from_group(world.assignment, world.instructor, group, hal)
    summaries = list(
        CourseAudit.objects.filter(course=world.course, action="groups")
        .order_by("pk")
        .values_list("user__username", "summary")
    )
    assert summaries == [
        ("iris", "'Week 1': groups of up to 3, formed by students"),
        ("ada", f"'Week 1': ada created group {group.code}"),
        ("grace", f"'Week 1': grace joined group {group.code} (ada, grace)"),
        ("grace", f"'Week 1': grace left group {group.code}"),
        ("iris", f"'Week 1': iris added hal to group {group.code} (ada, hal)"),
        ("iris", f"'Week 1': iris removed hal from group {group.code}"),
    ]


def test_the_groups_page_answers_each_persona_by_their_role(client, world):
    url = reverse("assignment-groups", args=[world.course.pk, world.assignment.pk])
    seen, changed = {}, {}
    for persona in PERSONAS:
        client.force_login(getattr(world, persona))
        seen[persona] = client.get(url).status_code
        changed[persona] = client.post(
            url, {"rule": "1", "group_size": "3", "groups_formed_by": "students"}
        ).status_code
    assert seen == {
        "instructor": 200,
        "ta": 200,
        "student": 403,
        "second": 403,
        "stranger": 404,
        "other_instructor": 404,
    }
    assert changed == {
        "instructor": 302,
        "ta": 403,
        "student": 403,
        "second": 403,
        "stranger": 404,
        "other_instructor": 404,
    }
    client.force_login(world.ta)
    assert "Groups of up to 3, students form them with a group code." in client.get(url).content.decode()


def test_only_students_of_the_course_create_or_join_groups(client, world):
    students_form_groups(world)
    url = reverse("assignment-my-group", args=[world.course.pk, world.assignment.pk])
    codes = {}
    for persona in ("instructor", "ta", "stranger", "other_instructor"):
        client.force_login(getattr(world, persona))
        codes[persona] = client.post(url, {"create": "1"}).status_code
    assert codes == {"instructor": 403, "ta": 403, "stranger": 404, "other_instructor": 404}
    assert not StudentGroup.objects.exists()


def test_a_member_reads_a_teammates_submit_and_nobody_else_does(client, world, django_user_model):
    hal = another_student(world, django_user_model)
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    submission = recorded(world.second, world.problems[0], at=DUE - HOUR)
    url = reverse("assignment-teammate-submit", args=[world.course.pk, world.assignment.pk, submission.pk])
    codes = {}
    for name, user in (
        ("member", world.student),
        ("other student", hal),
        ("instructor", world.instructor),
        ("stranger", world.stranger),
        ("other instructor", world.other_instructor),
    ):
        client.force_login(user)
        codes[name] = client.get(url).status_code
    assert codes == {"member": 200, "other student": 404, "instructor": 404, "stranger": 404, "other instructor": 404}
    client.force_login(world.student)
    page = client.get(url).content.decode()
    assert "import numpy as np" in page and '<p id="verdict">Accepted</p>' in page


def test_release_control_holds_the_groups_submits_from_every_member_until_release(client, world):
    services.save_assignment(
        world.course, world.instructor, {"release": Release.MANUAL}, world.problems, world.assignment
    )
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    submission = recorded(world.second, world.problems[0], at=DUE - HOUR)
    detail = reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])
    teammate = reverse("assignment-teammate-submit", args=[world.course.pk, world.assignment.pk, submission.pk])
    client.force_login(world.student)
    page, code = client.get(detail).content.decode(), client.get(teammate).content.decode()
    assert "received, grade not released yet" in page and "Accepted" not in page
    assert "Your points" not in page and "credit" not in page.split('id="problems"')[1].split("</ol>")[0]
    assert "the grade is not released yet" in code and "Accepted" not in code

    release.release_assignment(world.assignment, world.instructor)
    page, code = client.get(detail).content.decode(), client.get(teammate).content.decode()
    assert "Accepted" in page and "Your points: <strong>1</strong> of 2." in page
    assert '<p id="verdict">Accepted</p>' in code


def test_a_group_larger_than_a_new_size_must_be_split_first(world, django_user_model):
    another_student(world, django_user_model)
    students_form_groups(world, size=3)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    groups.join_group(world.assignment, django_user_model.objects.get(username="hal"), group.code)
    with pytest.raises(CourseError, match="These groups have more than 2 members"):
        groups.set_group_rule(world.assignment, world.instructor, 2, GroupFormation.STUDENTS)


def test_a_rubric_ticked_on_a_groups_submit_is_ticked_for_every_member(client, world):
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    submission = recorded(world.second, world.problems[0], at=DUE - HOUR)
    item = desk.add_rubric_item(world.assignment, world.instructor, world.problems[0], "A Python loop", -0.25)
    client.force_login(world.ta)
    client.post(
        reverse("desk-rubric", args=[world.course.pk, submission.pk]),
        {"assignment": world.assignment.pk, "item": [item.pk]},
    )
    assert csv_points(client, world) == {"ada": "0.75", "grace": "0.75"}
    assert CourseAudit.objects.filter(action="rubric", summary__startswith="ada and grace on first_step").exists()


def test_in_a_timed_assignment_a_teammates_submit_counts_only_inside_each_members_own_time(client, world):
    world.assignment.time_limit_minutes = 60
    world.assignment.save()
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    TimedStart.objects.create(assignment=world.assignment, user=world.student, started_at=DUE - 5 * HOUR)
    recorded(world.second, world.problems[0], at=DUE - 4.5 * HOUR)  # grace never pressed Start
    assert csv_points(client, world) == {"ada": "1", "grace": "0"}


def test_the_desk_says_whose_submits_count_for_a_group_member(client, world):
    students_form_groups(world)
    group = groups.create_group(world.assignment, world.student)
    groups.join_group(world.assignment, world.second, group.code)
    recorded(world.second, world.problems[0], at=DUE - HOUR)
    client.force_login(world.ta)
    page = client.get(reverse("desk-attempts", args=[world.course.pk, world.student.pk, "first_step"])).content.decode()
    assert f"In group {group.code} with grace: their Submits count here too" in page
    assert 'data-points="1.0"' in page
