"""In Chromium: "Rejudge every submission" shows how many submissions it will grade again before it does."""

from __future__ import annotations

import re

import pytest

from judge.authoring.models import RejudgeBatch
from tests.browser.conftest import PASSWORD, log_in, screenshot
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_rejudging_everything_is_confirmed_with_the_count_first(
    live_server, problems, page, student, second_student, django_user_model
):
    for person in (student, second_student):
        graded(person, problems["prepend_class_token"])
    django_user_model.objects.create_user("author", password=PASSWORD, is_staff=True)
    log_in(page, live_server.url, "author")
    page.goto(f"{live_server.url}/authoring/")

    page.get_by_role("button", name="Rejudge every submission").click()
    confirm = page.locator("#rejudge-confirm")
    assert "This will grade 2 submissions across 1 problem again" in " ".join(confirm.inner_text().split())
    assert not RejudgeBatch.objects.exists()
    screenshot(page, "rejudge-confirm")

    page.get_by_role("link", name="Cancel").click()
    page.wait_for_url(re.compile(r"/authoring/$"))
    assert not RejudgeBatch.objects.exists()

    page.get_by_role("button", name="Rejudge every submission").click()
    page.get_by_role("button", name="Rejudge 2 submissions").click()
    page.wait_for_url(re.compile(r"/authoring/rejudge/\d+/$"))
    assert RejudgeBatch.objects.get().total == 2
