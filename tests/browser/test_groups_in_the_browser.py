"""In Chromium with a real worker: an instructor turns on student-formed groups of two; one student creates a group
and reads its code, a second joins with it, a third is refused because the group is full; the second student's
accepted Submit gives the first credit on the assignment page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from judge.courses import services
from judge.courses.models import Membership, Role
from judge.problems.models import Problem
from tests.browser.conftest import PASSWORD, log_in, replace_code, screenshot, submit_and_wait
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


@pytest.fixture
def pairs_course(site):
    """A course with an instructor and three students, and an open assignment of one problem, no groups yet."""
    users = get_user_model().objects
    prof = users.create_user("prof", password=PASSWORD)
    course = services.create_course(prof, "Pairs", "Term")
    for name in ("ada", "ben", "cy"):
        Membership.objects.create(course=course, user=users.create_user(name, password=PASSWORD), role=Role.STUDENT)
    now = timezone.now()
    assignment = services.save_assignment(
        course,
        prof,
        {"title": "Week 1", "opens_at": now - timedelta(days=1), "due_at": now + timedelta(days=1)},
        [Problem.objects.get(slug=SLUG)],
    )
    return f"{site}/courses/{course.pk}/assignments/{assignment.pk}/"


@pytest.fixture
def browser_as(chromium, site):
    """A page of its own, logged in, for each person the test names."""
    contexts = []

    def open_as(username: str):
        context = chromium.new_context(viewport={"width": 1360, "height": 900})
        context.set_default_timeout(30_000)
        contexts.append(context)
        page = context.new_page()
        log_in(page, site, username)
        return page

    yield open_as
    for context in contexts:
        context.close()


def join(page, assignment: str, code: str) -> str:
    page.goto(assignment)
    page.get_by_label("Group code").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_load_state("load")
    return page.inner_text("ul.messages")


def test_a_student_formed_pair_shares_the_credit_of_a_submit_and_a_third_cannot_join(
    site, page, browser_as, pairs_course
):
    assignment = pairs_course
    log_in(page, site, "prof")
    page.goto(assignment)
    page.get_by_role("link", name="Groups", exact=True).click()
    page.get_by_label("Group size").fill("2")
    page.get_by_label("Formed by").select_option(label="Students form them with a group code")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state("load")
    assert page.get_by_label("Group size").input_value() == "2"
    assert page.inner_text("#alone") == "ada, ben, cy"

    ada = browser_as("ada")
    ada.goto(assignment)
    ada.get_by_role("button", name="Create a group").click()
    code = ada.inner_text("#group-code")
    assert re.fullmatch(r"[A-Z0-9]{6,16}", code), code
    assert f"Others join it with the code {code}." in ada.inner_text("ul.messages")

    ben = browser_as("ben")
    assert f"You joined group {code}." in join(ben, assignment, code.lower())
    assert "Members: ada, ben (2 of at most 2)" in ben.inner_text("#group-members")

    cy = browser_as("cy")
    assert "This group is full: it has 2 members already." in join(cy, assignment, code)
    assert cy.get_by_label("Group code").is_visible()  # still offered the forms, in no group
    screenshot(cy, "groups-full-group-refuses-a-third")

    ben.get_by_role("link", name=Problem.objects.get(slug=SLUG).title).click()
    ben.wait_for_selector("#editor .ace_content")
    replace_code(ben, read_solution(SLUG))
    assert submit_and_wait(ben).query_selector("#verdict").inner_text() == "Accepted"

    ada.goto(assignment)
    assert "1.00 credit, from your group's Submit" in ada.inner_text("#problems")
    assert "Your points: 1 of 1." in ada.inner_text("#my-points")
    submits = ada.inner_text("#group-submits tbody")
    assert "ben" in submits and "Accepted" in submits
    screenshot(ada, "groups-credit-from-a-teammates-submit")

    page.reload()  # the instructor's Groups page: the pair, full, and cy in no group
    row = page.locator(f'#groups tr[data-group="{code}"]')
    assert [member.split()[0] for member in row.locator(".member").all_inner_texts()] == ["ada", "ben"]
    assert row.locator("td").last.inner_text() == "full"
    assert page.inner_text("#alone") == "cy"
