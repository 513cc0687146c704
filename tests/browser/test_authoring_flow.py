"""An author creates a problem in the browser, the gate catches a broken reference, the author publishes the fixed
draft after reviewing what changes, and a student solves it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD, edit_file, log_in, replace_code, screenshot, sign_up, submit_and_wait

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "double_the_scores"
STATEMENT = "# Double the scores\n\nReturn a new float64 array holding $2x$ for every entry of `x`.\n"
BROKEN = "import numpy as np\n\n\ndef double(x):\n    return x * two\n"
FIXED = "import numpy as np\n\n\ndef double(x):\n    return x * 2.0\n"
STUDENT = "import numpy as np\n\ndef double(x):\n    return np.add(x, x)\n"
GATE_TIMEOUT_MS = 90_000


def run_checks(page) -> None:
    runs = page.locator("section.gate-run").count()
    page.click("#run-gate")
    page.wait_for_function(f"() => document.querySelectorAll('section.gate-run').length > {runs}")
    page.wait_for_selector("section.gate-run[data-status=done]:first-of-type", timeout=GATE_TIMEOUT_MS)


def save_file(page, name: str, text: str) -> None:
    edit_file(page, name, text)
    page.click("#save-draft")
    page.wait_for_selector("#edit-saved")


def test_author_publishes_a_new_problem_only_after_the_gate_passes_and_a_student_solves_it(
    site, page, chromium, django_user_model
):
    django_user_model.objects.create_user("author", password=PASSWORD, is_staff=True)
    log_in(page, site, "author")
    page.get_by_role("link", name="Authoring").click()
    page.get_by_role("link", name="New problem").click()
    page.fill("input[name=slug]", SLUG)
    page.fill("input[name=title]", "Double the scores")
    page.fill("input[name=function]", "double")
    page.fill("input[name=params]", "x")
    page.get_by_role("button", name="Create the draft").click()
    page.wait_for_url(re.compile(f"/authoring/problems/{SLUG}/edit/$"))

    page.wait_for_selector("#workbench-editor .ace_content")
    edit_file(page, "statement.md", STATEMENT)
    save_file(page, "solution.py", BROKEN)
    assert "Double the scores" in page.inner_text("section.statement.preview h1")
    assert page.locator("section.statement.preview .katex").count() == 1  # the math is typeset
    screenshot(page, "authoring-edit")

    page.goto(f"{site}/authoring/problems/{SLUG}/")
    run_checks(page)
    latest = page.locator("section.gate-run").first
    assert latest.get_attribute("data-passed") == "false"
    reference = latest.locator("li.gate-check[data-check=reference]")
    assert "failed" in reference.get_attribute("class")
    assert "NameError" in reference.inner_text() and "example_1" in reference.inner_text()
    assert latest.locator("li.gate-check[data-check=generator].passed").count() == 1
    assert "Draft" in page.inner_text("#state")
    screenshot(page, "authoring-gate-failed")

    student = chromium.new_context().new_page()
    sign_up(student, site)
    assert "Double the scores" not in student.inner_text("main")
    assert student.goto(f"{site}/problems/{SLUG}/").status == 404

    page.goto(f"{site}/authoring/problems/{SLUG}/edit/")
    page.wait_for_selector("#workbench-editor .ace_content")
    save_file(page, "solution.py", FIXED)
    page.goto(f"{site}/authoring/problems/{SLUG}/")
    run_checks(page)
    latest = page.locator("section.gate-run").first
    assert latest.get_attribute("data-passed") == "true", latest.inner_text()
    assert latest.locator("li.gate-check.passed").count() == 8  # the pool of drawn hidden cases is the last
    assert latest.locator("li.gate-check.not-applicable").count() == 2  # no probes, no finite differences
    assert "Draft" in page.inner_text("#state")  # passing the checks publishes nothing
    screenshot(page, "authoring-gate-passed")
    assert student.goto(f"{site}/problems/{SLUG}/").status == 404

    page.click("#review-publish")
    page.wait_for_url(re.compile(f"/authoring/problems/{SLUG}/publish/$"))
    assert page.locator("#test-changes li.change.added").count() >= 3  # a first publish: every test is new
    assert page.locator('details.file-diff[data-file="solution.py"]').count() == 1
    screenshot(page, "authoring-publish-review")
    page.click("#publish")
    page.wait_for_url(re.compile(f"/authoring/problems/{SLUG}/$"))
    assert "Published" in page.inner_text("#state")

    student.goto(f"{site}/")
    student.get_by_role("link", name="Double the scores").click()
    student.wait_for_selector("#editor .ace_content")
    assert "2x" in student.inner_text("#panel-problem .statement")
    replace_code(student, STUDENT)
    panel = submit_and_wait(student)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    screenshot(student, "student-solves-new-problem")
    student.context.close()


def test_a_student_who_appends_the_class_token_is_told_the_misconception_and_led_to_the_theory(site, page):
    from tests.browser.conftest import open_problem
    from tests.conftest import read_solution

    sign_up(page, site)
    open_problem(page, site, "prepend_class_token")
    replace_code(page, read_solution("prepend_class_token", "wrong/appended.py"))
    submit_and_wait(page)
    note = page.locator("#result .misconception")
    assert note.count() == 1
    assert "Looks like a known mistake: Class token appended instead of prepended" in note.inner_text()
    assert "Seen on 13 tests" in note.inner_text()  # the hidden ones too, without their data
    screenshot(page, "misconception")
    note.get_by_role("link", name="Read the section that explains it").click()
    page.wait_for_url(re.compile(r"/problems/prepend_class_token/#md-why-position-0$"))
    expect(page.locator("#md-why-position-0")).to_be_visible()  # hashchange fires after the URL changes
