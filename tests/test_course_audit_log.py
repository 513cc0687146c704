"""The course's audit log reads in its viewer's time zone, every moment in one format, with the late rule's value."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.urls import reverse

from judge.courses import services
from judge.courses.models import CourseAudit, LateRule
from judge.courses.timezones import choose_time_zone
from tests.courses import DUE, world  # noqa: F401 (fixture)


def audit_lines(client, w) -> list[str]:
    client.force_login(w.instructor)
    page = client.get(reverse("course-settings", args=[w.course.pk])).content.decode()
    return page.split('<ul id="audit">')[1].split("</ul>")[0].split("<li>")[1:]


def test_an_assignment_and_an_extension_read_in_the_instructors_time_zone_with_the_multiplier(client, world):
    choose_time_zone(world.instructor, "Europe/Paris")  # UTC+1 in March
    services.set_override(
        world.assignment, world.instructor, {"due_at": DUE + timedelta(days=1)}, "", world.student, staff_note="flu"
    )
    lines = audit_lines(client, world)
    override, assignment = lines[0], next(line for line in lines if " assignment: created " in line)
    assert (
        "for ada: opens 2026-02-23 18:00, due 2026-03-03 18:00, closes 2026-03-04 18:00, "
        "late Submits earn 0.5 of the credit."
    ) in override
    assert "opens 2026-02-23 18:00, due 2026-03-02 18:00, closes 2026-03-04 18:00, late Submits earn 0.5" in assignment
    assert (
        "+00:00" not in "".join(lines)
        and "Times in Europe/Paris" in client.get(reverse("course-settings", args=[world.course.pk])).content.decode()
    )


def test_each_rows_own_time_is_in_the_same_format(client, world):
    CourseAudit.objects.filter(course=world.course).update(at=datetime(2026, 3, 1, 23, 30, tzinfo=UTC))
    choose_time_zone(world.instructor, "Asia/Tokyo")
    assert all(line.startswith("<time>2026-03-02 08:30</time>") for line in audit_lines(client, world))


def test_a_row_written_before_shows_its_moments_in_the_viewers_zone_whatever_offset_it_had(client, world):
    CourseAudit.objects.create(
        course=world.course,
        user=world.instructor,
        action="override",
        summary="'Week 1' for ada: opens None, due 2026-03-03 18:00:00+01:00, "
        "closes 2026-03-04 17:00:00+00:00, multiplier. Reason: flu",
    )
    choose_time_zone(world.instructor, "America/New_York")
    assert "due 2026-03-03 12:00, closes 2026-03-04 12:00" in audit_lines(client, world)[0]


def test_a_per_day_penalty_is_written_with_its_value(world):
    services.save_assignment(
        world.course,
        world.instructor,
        {"late_rule": LateRule.PER_DAY, "late_penalty_per_day": 0.1},
        world.problems,
        world.assignment,
    )
    assert (
        "late Submits lose 0.1 of the credit per day" in CourseAudit.objects.filter(action="assignment").first().summary
    )
