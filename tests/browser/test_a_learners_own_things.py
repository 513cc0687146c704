"""In Chromium with a real worker: Submit from the keyboard alone with the verdict announced, a note autosaved and
a bookmark kept, and a review re-solved from a blank page that counts for the review alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from judge.standings.models import UserTotals
from judge.submissions.models import Kind, Submission
from tests.boards import recorded
from tests.browser.conftest import open_problem, screenshot, sign_up, submit_and_wait
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


def focused(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.className")


def test_submit_from_the_keyboard_alone_and_hear_the_verdict(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    page.focus("#editor .ace_scroller")  # where Tab reaches the editor
    page.keyboard.press("Enter")  # into the text
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(read_solution(SLUG))
    page.keyboard.press("Escape")  # out of the text: Tab moves on again
    for _ in range(4):
        page.keyboard.press("Tab")
        if focused(page) == "submit-button":
            break
    assert focused(page) == "submit-button"
    page.keyboard.press("Enter")
    page.wait_for_selector("#result .result-panel[data-final=true]", timeout=90_000)
    page.wait_for_function("document.getElementById('verdict-announcer').textContent.startsWith('Result:')")
    said = page.inner_text("#verdict-announcer")
    assert "Accepted" in said and "Submit" in said


def test_a_note_is_autosaved_and_a_bookmark_kept(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    page.get_by_role("tab", name="Notes").click()
    page.fill("#note-text", "**Prepend**, not append: axis 1")
    page.wait_for_selector("#note-state:has-text('Note saved')")
    assert page.inner_html("#note-preview").startswith("<p><strong>Prepend</strong>")
    page.get_by_role("button", name="Bookmark").click()
    page.wait_for_selector("#bookmark button[aria-pressed=true]")
    screenshot(page, "problem-note-and-bookmark")

    page.reload()
    page.get_by_role("tab", name="Notes").click()
    assert page.input_value("#note-text") == "**Prepend**, not append: axis 1"
    page.goto(f"{site}/?bookmarked=1")
    assert page.locator("table.problems tbody tr").evaluate_all("rows => rows.map(r => r.dataset.slug)") == [SLUG]


def test_a_review_is_solved_again_from_a_blank_page_and_counts_for_itself_alone(site, page, problems):
    name = sign_up(page, site)
    student = get_user_model().objects.get(username=name)
    solve = recorded(student, problems[SLUG])
    Submission.objects.filter(pk=solve.pk).update(created_at=timezone.now() - timedelta(days=3, minutes=1))
    solved_before = UserTotals.objects.get(user=student).solved

    page.goto(f"{site}/accounts/me/")
    page.locator("#reviews").get_by_role("link", name=problems[SLUG].title).click()
    page.wait_for_selector("#editor .ace_content")
    assert page.evaluate("window.judgeEditor.getValue()") == problems[SLUG].starter_code
    screenshot(page, "problem-review")
    page.evaluate("code => window.judgeEditor.setValue(code, -1)", read_solution(SLUG))
    panel = submit_and_wait(page, "Submit review")
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert "counts for your review only" in panel.inner_text()

    assert Submission.objects.filter(user=student, kind=Kind.REVIEW).count() == 1
    assert UserTotals.objects.get(user=student).solved == solved_before
    page.goto(f"{site}/accounts/me/")
    assert "Nothing is due for review" in page.inner_text("#reviews")
