"""An extension carries two texts: the message its student reads beside their own dates, and a private note that
only the course's staff read (on the overrides page and in the audit log)."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse

from judge.courses.models import CourseAudit, Override
from tests.courses import DUE, world  # noqa: F401 (fixture)

PRIVATE = "Doctor's note seen: surgery on 1 March"
MESSAGE = "Extended by two days, as agreed"


def extend(client, w, **fields):
    client.force_login(w.instructor)
    return client.post(
        reverse("assignment-overrides", args=[w.course.pk, w.assignment.pk]),
        {
            "student": "ada",
            "due_at": (DUE + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            "closes_at": (DUE + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"),
            **fields,
        },
    )


def test_the_form_says_which_text_the_student_reads(client, world):
    client.force_login(world.instructor)
    page = client.get(reverse("assignment-overrides", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "The student reads this beside their own dates. Leave out anything private." in page
    assert "Never shown to the student" in page


def test_the_student_reads_the_message_and_never_the_private_note(client, world):
    assert extend(client, world, reason=MESSAGE, staff_note=PRIVATE).status_code == 302
    client.force_login(world.student)
    url = reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])
    page = client.get(url).content.decode()
    assert f"Your own dates: {MESSAGE}" in page
    assert "surgery" not in page and "Doctor" not in page
    assert "surgery" not in client.get(reverse("course-home", args=[world.course.pk])).content.decode()


def test_the_courses_staff_read_both_texts(client, world):
    extend(client, world, reason=MESSAGE, staff_note=PRIVATE)
    url = reverse("assignment-overrides", args=[world.course.pk, world.assignment.pk])
    for persona in ("instructor", "ta"):
        client.force_login(getattr(world, persona))
        page = client.get(url).content.decode()
        assert "Doctor&#x27;s note seen: surgery on 1 March" in page and MESSAGE in page, persona
    summary = CourseAudit.objects.get(course=world.course, action="override").summary
    assert f"Message to the student: {MESSAGE}. Staff note: {PRIVATE}" in summary
    for persona, status in (("student", 403), ("other_instructor", 404), ("stranger", 404)):
        client.force_login(getattr(world, persona))
        assert client.get(url).status_code == status, persona


def test_a_private_note_alone_is_enough_and_the_student_reads_only_their_dates(client, world):
    assert extend(client, world, staff_note=PRIVATE).status_code == 302
    client.force_login(world.student)
    page = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "Your own dates." in page and "surgery" not in page


def test_an_extension_without_either_text_is_refused(client, world):
    response = extend(client, world)
    assert response.status_code == 400
    assert "Say why: write a message to the student, a private note for staff, or both" in response.content.decode()
    assert not Override.objects.exists()
