"""The instructor's course pages on a 390 px phone in Chromium: the page itself never scrolls sideways; a wide
table (the gradebook, the live matrix) scrolls inside its own box (issue 40 §7: the live matrix was 972 px wide,
the gradebook 437 and the course home 410)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from judge.courses import services
from judge.courses.models import LateRule, Membership, Role
from tests.boards import quick_problem, recorded
from tests.browser.conftest import PASSWORD, log_in, screenshot
from tests.courses import make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDTHS = """() => ({page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
    widest: [...document.querySelectorAll("body *")].filter(el => el.getClientRects().length
        && !el.closest(".table-scroll") && el.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map(el => el.tagName + "." + el.className).slice(0, 5),
    boxes: [...document.querySelectorAll(".table-scroll")].map(box => [box.clientWidth, box.scrollWidth])})"""


def a_term(django_user_model):
    """A course whose assignment has ten problems, with students a long name among them, and Submits in it."""
    world = make_world(django_user_model)
    for user in django_user_model.objects.all():
        user.set_password(PASSWORD)
        user.save()
    problems = world.problems + [quick_problem(f"step_number_{n}_with_a_long_title", order=n + 3) for n in range(8)]
    now = timezone.now()
    services.save_assignment(
        world.course,
        world.instructor,
        {
            "title": "Week 1: attention from scratch, with a long title",
            "opens_at": now - timedelta(days=2),
            "due_at": now + timedelta(days=1),
            "closes_at": now + timedelta(days=3),
            "late_rule": LateRule.MULTIPLIER,
            "late_multiplier": 0.5,
        },
        problems,
        world.assignment,
    )
    long_name = django_user_model.objects.create_user("a_student_with_a_very_long_username", password=PASSWORD)
    Membership.objects.create(course=world.course, user=long_name, role=Role.STUDENT, section=world.section)
    for student in (world.student, world.second, long_name):
        for problem in problems[:6]:
            recorded(student, problem, at=now - timedelta(hours=1))
    return world


def test_the_instructors_pages_fit_a_phone(live_server, chromium, django_user_model):
    world = a_term(django_user_model)
    context = chromium.new_context(viewport=PHONE)
    try:
        fits_a_phone(context, live_server.url, world)
    finally:
        context.close()


def fits_a_phone(context, site: str, world) -> None:
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, site, world.instructor.username)
    course, assignment = world.course.pk, world.assignment.pk
    for name, path, ready in (
        ("course-home", f"/courses/{course}/", "#assignments"),
        ("gradebook", f"/courses/{course}/gradebook/", "#gradebook"),
        ("live-matrix", f"/courses/{course}/assignments/{assignment}/progress/", "#progress-matrix"),
        ("assignment-form", f"/courses/{course}/assignments/{assignment}/edit/", "#problem-picker"),
        ("overrides", f"/courses/{course}/assignments/{assignment}/overrides/", "#override-form"),
        ("course-settings", f"/courses/{course}/settings/", "#audit"),
        ("people", f"/courses/{course}/people/", "#members"),
        ("insights", f"/courses/{course}/assignments/{assignment}/insights/", "h1"),
        (
            "similarity",
            f"/courses/{course}/assignments/{assignment}/similarity/?problem=first_step&run=1",
            "#similarity-summary",
        ),
    ):
        page.goto(site + path)
        page.wait_for_selector(ready)
        widths = page.evaluate(WIDTHS)
        screenshot(page, f"instructor-{name}-390px")
        assert widths["page"] <= widths["window"] == 390, (name, widths)
        assert all(inner <= 390 for inner, _ in widths["boxes"]), (name, widths)
    # The matrix is wider than the phone: it scrolls inside its box, which the keyboard can reach.
    page.goto(f"{site}/courses/{course}/assignments/{assignment}/progress/")
    box = page.locator(".table-scroll:has(#progress-matrix)")
    assert box.evaluate("el => el.scrollWidth > el.clientWidth && el.tabIndex === 0")
    # The assignment form's search narrows the list of problems to those whose title or name has every word typed.
    page.goto(f"{site}/courses/{course}/assignments/{assignment}/edit/")
    page.fill("#picker-search", "number 3")
    shown = page.locator("#problem-picker li:visible")
    assert shown.count() == 1 and "Step number 3 with a long title" in shown.inner_text()
    assert page.inner_text("#picker-count") == "10 chosen; 1 of 10 shown"
