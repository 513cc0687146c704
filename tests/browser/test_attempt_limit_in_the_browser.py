"""In Chromium with a real worker: an assignment allows two Submits; the note above the editor counts them down
after each Submit without a reload, Run leaves the count alone, and a third Submit is refused with the reason."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from judge.courses import services
from judge.courses.models import Membership, Role
from judge.problems.models import Problem
from tests.browser.conftest import open_problem, screenshot, sign_up, submit_and_wait

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


def test_the_count_goes_down_with_each_submit_and_the_third_is_refused(site, page):
    username = sign_up(page, site)
    users = get_user_model().objects
    staff = users.create_user("limits_staff", "s@example.org", "correct horse battery", is_staff=True)
    course = services.create_course(staff, "Limits", "Term")
    Membership.objects.create(course=course, user=users.get(username=username), role=Role.STUDENT)
    now = timezone.now()
    services.save_assignment(
        course,
        staff,
        {"title": "Quiz", "opens_at": now - timedelta(days=1), "due_at": now + timedelta(days=1), "max_submits": 2},
        [Problem.objects.get(slug=SLUG)],
    )
    open_problem(page, site, SLUG)
    assert "2 of 2 Submits left" in page.inner_text("#due-notes")
    submit_and_wait(page, "Run examples")
    assert "2 of 2 Submits left" in page.inner_text("#due-notes")
    submit_and_wait(page)
    assert "1 of 2 Submits left" in page.inner_text("#due-notes")
    submit_and_wait(page)
    assert "0 of 2 Submits left" in page.inner_text("#due-notes")
    page.get_by_role("button", name="Submit", exact=True).click()
    page.wait_for_selector("#result :text('Not submitted')")
    assert "you have used all 2 Submits allowed on prepend_class_token in Quiz (Limits (Term))" in page.inner_text(
        "#result"
    )
    screenshot(page, "attempt-limit-reached")
