"""Joining a course: a code, a link, or a roster; every bad input gets a clear message and changes nothing."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from judge.courses.models import CourseAudit, Membership, Role
from tests.courses import world  # noqa: F401 (fixture)


def members(course) -> set[tuple[str, str, str]]:
    return {
        (m.user.username, m.role, m.section.name if m.section else "")
        for m in Membership.objects.filter(course=course).select_related("user", "section")
    }


def upload(client, w, data: bytes):
    return client.post(
        reverse("course-people", args=[w.course.pk]), {"roster": SimpleUploadedFile("roster.csv", data, "text/csv")}
    )


def test_a_student_joins_with_the_code_and_sees_the_course(client, world):
    client.force_login(world.stranger)
    response = client.post(reverse("course-join"), {"code": world.course.join_code.lower()}, follow=True)
    assert "You joined Transformers in NumPy" in response.content.decode()
    assert Membership.objects.get(course=world.course, user=world.stranger).role == Role.STUDENT


def test_the_join_link_names_the_course_before_joining(client, world):
    client.force_login(world.stranger)
    response = client.get(reverse("course-join-link", args=[world.course.join_code]))
    assert "You are joining <strong>Transformers in NumPy (Spring 2026)</strong>" in response.content.decode()
    assert not Membership.objects.filter(user=world.stranger).exists()


def test_joining_again_keeps_the_role(client, world):
    client.force_login(world.ta)
    response = client.post(reverse("course-join"), {"code": world.course.join_code}, follow=True)
    assert "You are already in" in response.content.decode()
    assert Membership.objects.get(course=world.course, user=world.ta).role == Role.TA


def test_a_rotated_code_is_refused_with_its_reason(client, world):
    old = world.course.join_code
    client.force_login(world.instructor)
    client.post(reverse("course-settings", args=[world.course.pk]), {"rotate": "1"})
    world.course.refresh_from_db()
    assert world.course.join_code != old
    client.force_login(world.stranger)
    response = client.post(reverse("course-join"), {"code": old})
    assert response.status_code == 400
    assert "This join code was replaced by a new one" in response.content.decode()
    assert not Membership.objects.filter(user=world.stranger).exists()
    assert CourseAudit.objects.filter(course=world.course, action="rotate-code").exists()


def test_an_unknown_code_is_refused(client, world):
    client.force_login(world.stranger)
    response = client.post(reverse("course-join"), {"code": "NOPE2345"})
    assert response.status_code == 400 and "No course has the join code NOPE2345" in response.content.decode()


def test_a_roster_adds_students_by_username_or_email_into_sections(client, world):
    client.force_login(world.instructor)
    response = upload(client, world, b"username,section\nsam,Lab B\ngrace@example.org,Lab A\n")
    assert "1 added, 1 changed, 0 unchanged" in response.content.decode()
    assert ("sam", "student", "Lab B") in members(world.course)
    assert ("grace", "student", "Lab A") in members(world.course)


def refused(client, world, data: bytes, message: str) -> None:
    before = members(world.course)
    response = upload(client, world, data)
    text = response.content.decode()
    assert response.status_code == 400
    assert message in text, text
    assert members(world.course) == before


def test_a_roster_with_an_unknown_user_imports_nothing(client, world):
    client.force_login(world.instructor)
    refused(
        client,
        world,
        b"sam,Lab B\nnobody_here,Lab B\n",
        "Line 2: no account has the username or email &#x27;nobody_here&#x27;",
    )


def test_a_roster_with_a_duplicate_imports_nothing(client, world):
    client.force_login(world.instructor)
    refused(
        client, world, b"sam,Lab B\nSAM@example.org,Lab A\n", "Line 2: &#x27;SAM@example.org&#x27; is already on line 1"
    )


def test_a_roster_in_another_encoding_imports_nothing(client, world):
    client.force_login(world.instructor)
    refused(client, world, "sam,Labor Müller\n".encode("latin-1"), "The roster is not UTF-8 text")


def test_ten_megabytes_of_junk_imports_nothing(client, world):
    client.force_login(world.instructor)
    before = members(world.course)
    response = upload(client, world, b"x" * 10_000_000)
    assert response.status_code == 413
    assert "this page accepts at most 1,114,112 bytes" in response.content.decode()
    assert members(world.course) == before


def test_a_roster_just_over_the_limit_is_refused_by_name(client, world):
    client.force_login(world.instructor)
    refused(client, world, b"sam,Lab B\n" * 100_001, "The roster is 1,000,010 bytes; the limit is 1,000,000")


def test_a_binary_file_or_a_bad_role_imports_nothing(client, world):
    client.force_login(world.instructor)
    refused(client, world, b"sam\x00\x01,Lab\n", "binary data")
    refused(client, world, b"sam,Lab B,owner\n", "Line 1: the role &#x27;owner&#x27; is not one of")
    refused(client, world, b"\n\n", "The roster is empty")


def test_the_course_home_shows_its_staff_the_join_code_and_link(client, world):
    url = reverse("course-home", args=[world.course.pk])
    link = f"http://testserver/courses/join/{world.course.join_code}/"
    for persona in ("instructor", "ta"):
        client.force_login(getattr(world, persona))
        page = client.get(url).content.decode()
        assert f'<code id="join-code">{world.course.join_code}</code>' in page, persona
        assert link in page, persona
    client.force_login(world.student)
    assert world.course.join_code not in client.get(url).content.decode()
