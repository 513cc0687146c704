"""Credit by date: the best Submit inside each student's own window counts; a rejudge or an extension changes it
on the next read; practice after the close still grades but counts for nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import services
from judge.courses.deadlines import Window, credit_at
from judge.courses.grades import gradebook
from judge.courses.models import CourseAudit, LateRule, Override
from tests.boards import recorded, regraded
from tests.courses import DUE, world  # noqa: F401 (fixture)

HOUR = timedelta(hours=1)
NO_LATE_WINDOW = {"closes_at": None, "late_rule": "", "late_multiplier": None}


def credit(w, user, problem) -> tuple[float, bool, bool]:
    book = gradebook(w.course)
    c = book.assignments[0].credit(user.pk, problem.pk)
    return c.value, c.counts, c.late


def test_the_date_decides_what_an_accepted_submit_is_worth():
    window = Window(
        opens_at=DUE - 24 * HOUR,
        due_at=DUE,
        closes_at=DUE + 72 * HOUR,
        late_rule=LateRule.PER_DAY,
        late_penalty_per_day=0.25,
    )
    assert not credit_at(window, DUE - 25 * HOUR).counts  # before it opens
    assert credit_at(window, DUE) == credit_at(window, DUE - HOUR) and credit_at(window, DUE).value == 1.0
    assert (credit_at(window, DUE + HOUR).value, credit_at(window, DUE + HOUR).late) == (0.75, True)
    assert credit_at(window, DUE + 25 * HOUR).value == 0.5  # a second day started
    assert not credit_at(window, DUE + 73 * HOUR).counts  # after the hard close


@pytest.mark.parametrize(
    "window",
    [
        Window(
            opens_at=DUE - 24 * HOUR,
            due_at=DUE,
            closes_at=DUE + 2 * HOUR,
            late_rule=LateRule.MULTIPLIER,
            late_multiplier=0.5,
        ),
        Window(opens_at=DUE - 24 * HOUR, due_at=DUE, closes_at=DUE + 2 * HOUR, late_rule=LateRule.NONE),
        Window(due_at=DUE),
        Window(opens_at=DUE),
        Window(),
    ],
    ids=["late-window", "late-rule-off", "no-opening", "no-due-time", "unbounded"],
)
def test_a_moment_inside_the_window_is_exactly_one_that_earns_credit(window):
    """One predicate: its edges are inclusive, and credit, the timed start and the final codes all ask it."""
    for offset in (-25, -24, -1, 0, 1, 2, 3):
        moment = DUE + offset * HOUR
        assert window.contains(moment) == credit_at(window, moment).counts, offset
        assert window.contains(moment) == (not window.not_open_at(moment) and not window.closed_at(moment))
    if window.last_moment is not None:
        assert window.contains(window.last_moment) and window.closed_at(window.last_moment + timedelta(seconds=1))
    if window.opens_at is not None:
        assert window.contains(window.opens_at) and window.not_open_at(window.opens_at - timedelta(seconds=1))


def test_on_time_counts_fully_late_at_the_multiplier_after_the_close_not_at_all(world):
    first, second = world.problems
    recorded(world.student, first, at=DUE - HOUR)
    recorded(world.second, first, at=DUE + HOUR)
    recorded(world.second, second, at=DUE + 49 * HOUR)  # after the close: practice
    assert credit(world, world.student, first) == (1.0, True, False)
    assert credit(world, world.second, first) == (0.5, True, True)
    assert credit(world, world.second, second) == (0.0, False, False)


def test_the_best_submit_counts_not_the_last(world):
    first, _ = world.problems
    recorded(world.student, first, at=DUE - 2 * HOUR)
    recorded(world.student, first, verdict=Verdict.WRONG_ANSWER, at=DUE - HOUR)
    recorded(world.student, first, at=DUE + HOUR)
    assert credit(world, world.student, first) == (1.0, True, False)


def test_a_rejudge_recomputes_the_credit(world):
    first, _ = world.problems
    on_time = recorded(world.student, first, at=DUE - HOUR)
    recorded(world.student, first, at=DUE + HOUR)
    assert regraded(on_time, Verdict.WRONG_ANSWER)
    assert credit(world, world.student, first) == (0.5, True, True)


def test_an_extension_changes_one_students_credit_and_is_audited(client, world):
    first, _ = world.problems
    recorded(world.student, first, at=DUE + HOUR)
    recorded(world.second, first, at=DUE + HOUR)
    client.force_login(world.instructor)
    new_due = (DUE + 3 * HOUR).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        reverse("assignment-overrides", args=[world.course.pk, world.assignment.pk]),
        {
            "student": "ada",
            "due_at": new_due,
            "closes_at": (DUE + 72 * HOUR).strftime("%Y-%m-%dT%H:%M"),
            "reason": "medical note",
        },
    )
    assert response.status_code == 302
    assert credit(world, world.student, first) == (1.0, True, False)
    assert credit(world, world.second, first) == (0.5, True, True)
    assert CourseAudit.objects.filter(course=world.course, action="override", summary__contains="medical note").exists()
    client.force_login(world.student)
    page = client.get(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])).content.decode()
    assert "Your own dates: medical note" in page and "March 2, 2026, 8 p.m." in page


def test_changing_an_assignment_checks_its_dates_as_they_will_be(world):
    with pytest.raises(services.CourseError, match="The hard close must come at or after the due time"):
        services.save_assignment(
            world.course, world.instructor, {"due_at": DUE + 72 * HOUR}, world.problems, world.assignment
        )


def test_a_section_override_applies_to_its_members_only(world):
    first, _ = world.problems
    services.set_override(
        world.assignment, world.instructor, {"due_at": DUE + 2 * HOUR}, "lab moved", section=world.section
    )
    recorded(world.student, first, at=DUE + HOUR)  # ada is in Lab A
    recorded(world.second, first, at=DUE + HOUR)
    assert credit(world, world.student, first)[0] == 1.0
    assert credit(world, world.second, first)[0] == 0.5


def post_override(client, w, **fields):
    return client.post(reverse("assignment-overrides", args=[w.course.pk, w.assignment.pk]), fields)


def test_bad_overrides_are_refused_by_name_and_change_nothing(client, world):
    client.force_login(world.instructor)
    cases = [
        ({"student": "sam", "due_at": "2026-03-05T10:00", "reason": "x"}, "sam is not a student in this course."),
        ({"student": "tariq", "due_at": "2026-03-05T10:00", "reason": "x"}, "tariq is not a student in this course."),
        (
            {"student": "ada", "due_at": "2026-02-01T10:00", "reason": "x"},
            "The opening time must come before the due time.",
        ),
        (
            {"student": "ada", "due_at": "2026-03-09T10:00", "reason": "x"},
            "The hard close must come at or after the due time.",
        ),
        ({"student": "ada", "due_at": "2026-03-03T10:00", "reason": ""}, "reason"),
        ({"section": "Lab Z", "due_at": "2026-03-03T10:00", "reason": "x"}, "This course has no section named Lab Z."),
        ({"due_at": "2026-03-03T10:00", "reason": "x"}, "Choose either one student or one section."),
        ({"student": "ada", "due_at": "tomorrow", "reason": "x"}, "Enter a valid date/time."),
    ]
    for fields, message in cases:
        response = post_override(client, world, **fields)
        assert response.status_code == 400, fields
        assert message in response.content.decode(), (fields, response.content.decode())
    assert not Override.objects.exists()
    assert not CourseAudit.objects.filter(action="override").exists()


def test_assignment_dates_out_of_order_are_refused(client, world):
    client.force_login(world.instructor)
    response = client.post(
        reverse("assignment-new", args=[world.course.pk]),
        {
            "title": "Week 2",
            "problems": ["first_step"],
            "weight": "1",
            "opens_at": "2026-03-10T10:00",
            "due_at": "2026-03-09T10:00",
            "late_rule": "multiplier",
            "late_multiplier": "0.5",
        },
    )
    text = response.content.decode()
    assert response.status_code == 400
    assert "The opening time must come before the due time." in text
    assert "A late rule needs a hard close" in text
    assert world.course.assignments.count() == 1


def test_a_timed_assignment_counts_only_inside_the_personal_window(client, world):
    first, _ = world.problems
    now = timezone.now()
    services.save_assignment(
        world.course,
        world.instructor,
        {
            "title": "Exam",
            "opens_at": now - HOUR,
            "due_at": now + 5 * HOUR,
            "time_limit_minutes": 30,
            "weight": 2,
            **NO_LATE_WINDOW,
        },
        [first],
        world.assignment,
    )
    recorded(world.second, first, at=now - HOUR / 2)  # never started: nothing counts
    client.force_login(world.student)
    client.post(reverse("assignment-detail", args=[world.course.pk, world.assignment.pk]), {"start": "1"})
    recorded(world.student, first, at=timezone.now() + timedelta(minutes=10))
    assert credit(world, world.student, first)[0] == 1.0
    assert credit(world, world.second, first)[1] is False
    late = recorded(world.second, first, at=now + 5 * HOUR + HOUR)
    assert late and credit(world, world.second, first)[1] is False


def test_the_problem_page_says_when_it_is_due(client, world):
    first, _ = world.problems
    now = timezone.now()
    services.save_assignment(
        world.course,
        world.instructor,
        {
            "title": "Week 1",
            "opens_at": now - HOUR,
            "due_at": now + timedelta(hours=2, minutes=13, seconds=30),
            **NO_LATE_WINDOW,
        },
        world.problems,
        world.assignment,
    )
    client.force_login(world.student)
    page = client.get(reverse("problem-detail", args=[first.slug])).content.decode()
    assert "Week 1 (Transformers in NumPy (Spring 2026)): Due in 2 h 13 min." in page
    client.force_login(world.stranger)
    assert "Due in" not in client.get(reverse("problem-detail", args=[first.slug])).content.decode()


def test_after_the_close_the_problem_page_says_practice_only(client, world):
    first, _ = world.problems
    now = timezone.now()
    services.save_assignment(
        world.course,
        world.instructor,
        {"title": "Week 1", "opens_at": now - 9 * HOUR, "due_at": now - 2 * HOUR, **NO_LATE_WINDOW},
        world.problems,
        world.assignment,
    )
    client.force_login(world.student)
    page = client.get(reverse("problem-detail", args=[first.slug])).content.decode()
    assert "Closed: Submits still grade, as practice, but do not count." in page


def test_a_timed_assignment_cannot_be_started_before_it_opens(client, world):
    now = timezone.now()
    services.save_assignment(
        world.course,
        world.instructor,
        {"title": "Exam", "opens_at": now + HOUR, "due_at": now + 5 * HOUR, "time_limit_minutes": 30, **NO_LATE_WINDOW},
        world.problems,
        world.assignment,
    )
    client.force_login(world.student)
    url = reverse("assignment-detail", args=[world.course.pk, world.assignment.pk])
    response = client.post(url, {"start": "1"}, follow=True)
    assert "This assignment has not opened yet." in response.content.decode()
    assert not world.assignment.timed_starts.exists()
