"""A student's way through the site in a real browser, graded by a real worker."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import editor_text, open_problem, replace_code, screenshot, sign_up, submit_and_wait
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


def test_a_new_student_signs_up_solves_prepend_class_token_and_is_accepted(site, page):
    page.goto(f"{site}/accounts/signup/")
    screenshot(page, "signup")
    username = sign_up(page, site)
    screenshot(page, "problem-list")

    page.get_by_role("link", name="Prepend the class token").click()
    page.wait_for_selector("#editor .ace_content")
    assert "NotImplementedError" in editor_text(page)  # prefilled with the starter code
    statement = page.inner_text("#panel-problem .statement")
    assert page.locator("#panel-problem .katex").count() > 3
    assert "$" not in statement and "\\(" not in statement  # every formula was typeset
    screenshot(page, "problem-page")

    replace_code(page, read_solution(SLUG))
    page.evaluate("""() => {
        window.stillTheSamePage = true;
        window.seen = [];
        new MutationObserver(() => {
            const shown = document.querySelector('#result #verdict');
            if (shown) window.seen.push(shown.textContent.trim().replace(/\\s+/g, ' '));
        }).observe(document.getElementById('result'), {childList: true, subtree: true});
    }""")
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    seen = page.evaluate("window.seen")
    assert seen[0].startswith("Queued, position 1 in the queue") and seen[-1] == "Accepted", seen
    assert page.evaluate("window.stillTheSamePage")  # live updates, no reload
    assert page.locator("#result li.test.passed").count() == 13
    screenshot(page, "accepted")

    page.get_by_role("tab", name="Submissions").click()
    page.wait_for_selector("#history .verdict.accepted")
    page.goto(f"{site}/accounts/users/{username}/")
    assert "Prepend the class token" in page.inner_text("table.solved")
    screenshot(page, "profile")
    page.goto(f"{site}/leaderboard/")
    assert username in page.inner_text("table.leaderboard")
    screenshot(page, "leaderboard")
    page.goto(f"{site}/")
    assert page.locator(f"tr[data-slug={SLUG}] .mark.solved").count() == 1


def test_a_wrong_shape_shows_the_shape_check_failing(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG, "wrong/batch_axis.py"))
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Wrong answer"
    first = page.locator("#result li.test").first
    assert first.locator(".check.failed").inner_text().endswith("shape")
    assert first.locator(".check.passed").count() == 2  # ndarray and float64 passed before it
    assert "expected shape (1, 3, 3), got (2, 2, 3)" in first.inner_text()
    screenshot(page, "wrong-shape")


def test_a_wrong_value_shows_its_difference_picture(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG, "wrong/appended.py"))
    submit_and_wait(page)
    first = page.locator("#result li.test").first
    assert first.locator(".check.failed").inner_text().endswith("values")
    picture = first.locator(".difference-picture svg.heatmap")
    assert picture.count() == 1
    assert picture.locator("rect.first-mismatch").count() == 1
    figures = first.locator(".error-figures").inner_text()
    assert "max absolute error 5.7" in figures and "first mismatch at [0, 0, 0]" in figures
    second = page.locator("#result li.test").nth(1)  # a batch of two: one panel per image
    assert second.locator("svg.heatmap text").all_text_contents() == ["[0, :, :]", "[1, :, :]"]
    hidden = page.locator("#result li.test.hidden-test").first
    assert hidden.locator(".difference-picture").count() == 0 and hidden.locator("details.arrays").count() == 0
    first.scroll_into_view_if_needed()
    screenshot(page, "wrong-value")


def test_a_runtime_error_points_at_the_line_in_the_editor(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    code = read_solution(SLUG, "wrong/no_tile.py")
    replace_code(page, code)
    submit_and_wait(page, "Run examples")
    assert "(visible examples only, not counted)" in page.inner_text("#result .status-line")
    line = next(i for i, text in enumerate(code.splitlines(), 1) if "concatenate" in text)
    assert f"line {line}, in prepend_class_token" in page.inner_text("#result .traceback")
    annotations = page.evaluate("window.judgeEditor.session.getAnnotations()")
    assert [(a["row"] + 1, a["type"]) for a in annotations] == [(line, "error")]
    assert page.locator("#editor .error-line-marker").count() == 1
    screenshot(page, "runtime-error")


def test_another_student_cannot_open_the_first_students_submission(site, page):
    sign_up(page, site, "first_student")
    open_problem(page, site, SLUG)
    secret = "# first student's private idea\n" + read_solution(SLUG)
    replace_code(page, secret)
    panel = submit_and_wait(page)
    submission_url = panel.query_selector(".status-line a").get_attribute("href")
    page.goto(site + submission_url)
    assert "private idea" in page.inner_text("pre.code")

    page.context.clear_cookies()
    sign_up(page, site, "second_student")
    response = page.goto(site + submission_url)
    assert response.status == 404
    assert "private idea" not in page.content()
    status = page.goto(site + submission_url + "status/")
    assert status.status == 404


def test_the_draft_survives_a_reload_and_can_be_reset(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, "import numpy as np\n\n# my half-finished idea\n")
    page.wait_for_function("() => document.getElementById('draft-state').textContent === 'Draft saved'")
    page.reload()
    page.wait_for_selector("#editor .ace_content")
    assert "my half-finished idea" in editor_text(page)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Reset to starter code").click()
    page.wait_for_function("() => window.judgeEditor.getValue().includes('NotImplementedError')")
    page.reload()
    page.wait_for_selector("#editor .ace_content")
    assert "my half-finished idea" not in editor_text(page)


def test_the_editor_indents_python_blocks(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    page.click("#editor .ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type("def f(x):\nreturn x")
    assert editor_text(page) == "def f(x):\n    return x"
    page.keyboard.press("Home")
    page.keyboard.press("Shift+Tab")
    assert editor_text(page) == "def f(x):\nreturn x"


def test_hints_are_revealed_one_at_a_time(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    page.get_by_role("tab", name=re.compile("Hints")).click()
    assert page.locator("#hints li.hint").count() == 0
    page.get_by_role("button", name="Reveal hint 1 of 3").click()
    page.wait_for_selector("#hints li.hint")
    assert page.locator("#hints li.hint").count() == 1
    page.get_by_role("button", name="Reveal hint 2 of 3").click()
    page.wait_for_function("() => document.querySelectorAll('#hints li.hint').length === 2")
    assert page.locator("#hints .katex").count() > 0 and "$" not in page.inner_text("#hints")  # math typeset
    screenshot(page, "hints")
    page.reload()
    page.get_by_role("tab", name=re.compile("Hints")).click()
    expect(page.locator("#hints li.hint")).to_have_count(2)  # recorded, not just shown


def test_two_attempts_can_be_compared_from_the_submissions_tab(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG, "wrong/float32.py"))
    submit_and_wait(page)
    replace_code(page, read_solution(SLUG))
    submit_and_wait(page)
    page.get_by_role("tab", name="Submissions").click()
    page.wait_for_function("() => document.querySelectorAll('#history tbody tr').length === 2")
    screenshot(page, "submissions-tab")
    page.get_by_role("button", name="Compare A and B").click()
    page.wait_for_selector("pre.diff")
    assert "return out.astype(np.float32)" in page.inner_text("pre.diff .removed >> nth=-1")
    assert page.locator("pre.diff .added").count() > 0
    screenshot(page, "diff")
    page.locator("h1 a").first.click()
    page.wait_for_selector("pre.code")
    assert "np.float32" in page.inner_text("pre.code")
    assert page.inner_text("#verdict") == "Wrong answer"
    screenshot(page, "submission")
