"""An author works on a draft in the workbench: picks files, edits them in Ace, watches the preview typeset
the math as they type, saves, runs the gate in place and reads its failure check by check, wrapped."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from judge.authoring.services import create_problem
from judge.problems.models import Problem
from tests.browser.conftest import PASSWORD, edit_file, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "double_it"
GATE_TIMEOUT_MS = 90_000
STATEMENT = (
    "# Double it\n\nImplement `double(x)`: return a new float64 array holding $2x$ for every entry of `x`,\n"
    "so that\n\n$$\n\\sum_i 2 x_i = 2 \\sum_i x_i.\n$$\n"
)
THEORY = "## Why doubling\n\nScaling is linear: $f(a + b) = f(a) + f(b)$.\n"
# A reference that fails with a long message that has no space to break at.
UNDEFINED = "scale_factor_" + "that_was_never_defined_anywhere_in_this_module_" * 4
BROKEN = f"import numpy as np\n\n\ndef double(x):\n    return x * {UNDEFINED}\n"
FIXED = "import numpy as np\n\n\ndef double(x):\n    return x * 2.0\n"


def fits(page, selector: str) -> bool:
    """Nothing in the element is cut off at its right edge."""
    return page.eval_on_selector(selector, "el => el.scrollWidth <= el.clientWidth + 1")


def page_fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def ace_mode(page, expected: str) -> str:
    """The editor's mode once it is ``expected`` or 5 s have passed: Ace fetches a mode's script on first use."""
    try:
        page.wait_for_function(
            "mode => window.judgeWorkbench.session.getMode().$id === mode", arg=expected, timeout=5_000
        )
    except PlaywrightTimeoutError:
        pass
    return page.evaluate("() => window.judgeWorkbench.session.getMode().$id")


def run_checks(page):
    """Run the gate from the workbench and wait, on the same page, for this run's outcome."""
    page.click("#tab-checks")
    shown = page.locator("#gate-latest section.gate-run")
    before = shown.get_attribute("id") if shown.count() else ""
    page.click("#run-gate")
    page.wait_for_function(
        "before => { const run = document.querySelector('#gate-latest section.gate-run');"
        " return run && run.id !== before && run.dataset.status === 'done'; }",
        arg=before,
        timeout=GATE_TIMEOUT_MS,
    )
    return shown


def save(page) -> None:
    with page.expect_navigation():
        page.keyboard.press("Control+S")  # the workbench's shortcut for the Save draft button
    page.wait_for_selector("#edit-saved")
    page.wait_for_selector("#workbench-editor .ace_content")


def test_an_author_edits_previews_saves_and_reads_the_gate_check_by_check(site, page, django_user_model):
    author = django_user_model.objects.create_user("author", password=PASSWORD, is_staff=True)
    create_problem(author, SLUG, "Double it", "double", ["x"])
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, site, "author")
    page.goto(f"{site}/authoring/problems/{SLUG}/edit/")
    page.wait_for_selector("#workbench-editor .ace_content")

    names = page.locator(".file-list a[data-file]").all_inner_texts()
    assert names[:3] == ["problem.toml", "statement.md", "theory.md"] and "solution.py" in names
    assert page.locator("fieldset.package-file:visible").count() == 1  # one file at a time, beside the list

    edit_file(page, "statement.md", STATEMENT)
    assert ace_mode(page, "ace/mode/markdown") == "ace/mode/markdown"
    page.wait_for_selector("#panel-statement .statement .katex-display")
    assert "Describe the task" not in page.inner_text("#panel-statement")
    assert page.locator("#panel-statement .statement .katex").count() >= 2
    assert "statement.md" in page.inner_text(".file-list a.modified")
    # The statement says "Implement double(x)" itself: the page's own line is left out, and the author is told.
    assert page.locator("#panel-statement p.signature").count() == 0
    assert page.locator("#signature-note").is_visible()
    assert len(re.findall(r"\bImplement\b", page.inner_text("#panel-statement .statement"))) == 1
    screenshot(page, "workbench-preview")

    edit_file(page, "theory.md", THEORY)
    page.wait_for_selector("#panel-theory .theory .katex")  # the theory tab follows the file
    assert page.locator("#panel-theory").is_visible() and not page.locator("#panel-statement").is_visible()
    assert "Why doubling" in page.inner_text("#panel-theory h2")

    page.click('.file-list a[data-file="problem.toml"]')
    assert ace_mode(page, "ace/mode/toml") == "ace/mode/toml" and "[function]" in page.inner_text("#workbench-editor")
    edit_file(page, "solution.py", BROKEN)
    assert ace_mode(page, "ace/mode/python") == "ace/mode/python"
    page.click("#tab-checks")
    assert page.locator("#gate-unsaved").is_visible()  # the checks run on what is saved
    page.click("#workbench-editor .ace_content")
    assert Problem.objects.get(slug=SLUG).draft_files["statement.md"] != STATEMENT  # nothing saved while typing
    page.click(".file-list li.add a")
    page.fill("input[name=new_name]", "hints/01.md")
    page.fill("textarea[name=new_text]", "Multiply by $2$.")

    save(page)
    files = Problem.objects.get(slug=SLUG).draft_files
    assert (files["statement.md"], files["theory.md"], files["solution.py"]) == (STATEMENT, THEORY, BROKEN)
    assert "[function]" in files["problem.toml"]
    assert files["hints/01.md"] == "Multiply by $2$."
    assert page.locator('.file-list a[aria-current][data-file="hints/01.md"]').count() == 1  # the new file opens
    assert ace_mode(page, "ace/mode/markdown") == "ace/mode/markdown"
    page.click('.file-list a[data-file="hints/01.md"]')
    assert page.locator("#panel-hints .hint .katex").is_visible()
    page.click('.file-list a[data-file="solution.py"]')
    assert page_fits(page)

    gate = run_checks(page)
    assert gate.get_attribute("data-passed") == "false"
    assert gate.locator("li.gate-check[data-check=generator].passed").count() == 1
    reference = gate.locator("li.gate-check[data-check=reference]")
    assert "failed" in reference.get_attribute("class")
    detail = reference.locator("pre.gate-detail")
    assert detail.is_visible()  # a failed check opens on its details
    assert "example_1" in detail.inner_text() and "NameError" in detail.inner_text()
    assert UNDEFINED[:60] in detail.inner_text() and "is not defined (line 5)" in detail.inner_text()
    assert fits(page, "li.gate-check[data-check=reference] pre.gate-detail")
    assert fits(page, "#gate-latest section.gate-run") and page_fits(page)
    screenshot(page, "workbench")

    reference.locator("summary").click()
    assert not detail.is_visible()
    reference.locator("summary").click()
    assert detail.is_visible()
    passed = gate.locator("li.gate-check[data-check=generator]")
    assert not passed.locator("pre.gate-detail").is_visible()  # passed checks stay folded
    passed.locator("summary").click()
    assert "cases" in passed.locator("pre.gate-detail").inner_text()

    page.set_viewport_size({"width": 390, "height": 844})
    assert page_fits(page)
    assert page.locator("#workbench-editor").is_visible() and page.locator(".file-list").is_visible()
    screenshot(page, "workbench-390px")

    page.set_viewport_size({"width": 1280, "height": 900})
    edit_file(page, "solution.py", FIXED)
    save(page)
    gate = run_checks(page)
    assert gate.get_attribute("data-passed") == "true", gate.inner_text()
    assert gate.locator("li.gate-check.passed").count() == 8  # the pool of drawn hidden cases is the last
    assert gate.locator("li.gate-check.not-applicable .gate-mark").all_inner_texts() == ["n/a", "n/a"]
    assert gate.locator(".gate-live a.publish-link").is_visible()  # passed, not live: publishing is a step of its own
    assert not Problem.objects.get(slug=SLUG).published
    gate.locator("details.test-order summary").click()
    assert gate.locator("details.test-order li").first.inner_text() == "example_1 (visible)"

    page.goto(f"{site}/problems/{SLUG}/")
    assert len(re.findall(r"\bImplement\b", page.inner_text("#panel-problem"))) == 1
    assert page.locator("#panel-problem .statement .katex").count() >= 2


def test_without_javascript_the_workbench_is_a_form_of_textareas_that_saves(
    live_server, problems, chromium, django_user_model
):
    author = django_user_model.objects.create_user("author", password=PASSWORD, is_staff=True)
    create_problem(author, SLUG, "Double it", "double", ["x"])
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server.url, "author")
    page.goto(f"{live_server.url}/authoring/problems/{SLUG}/edit/")
    assert page.locator("textarea[name^='file:']:visible").count() == len(Problem.objects.get(slug=SLUG).draft_files)
    page.fill('textarea[name="file:statement.md"]', STATEMENT)
    page.fill("input[name=new_name]", "hints/01.md")
    page.fill("textarea[name=new_text]", "Multiply by $2$.")
    page.check('input[name="delete:theory.md"]')
    page.click("#save-draft")
    page.wait_for_selector("#edit-saved")
    files = Problem.objects.get(slug=SLUG).draft_files
    assert files["statement.md"] == STATEMENT and files["hints/01.md"] == "Multiply by $2$."
    assert "theory.md" not in files
    assert "Double it" in page.inner_text("#panel-statement h1")
    assert page.locator("#panel-hints .hint").is_visible() and page.locator("#run-gate").is_visible()
    context.close()
