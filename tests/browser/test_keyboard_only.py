"""The problem page and Submit with the keyboard alone: Tab reaches the editor, Enter starts editing, Escape
leaves it (no trap), Tab reaches Submit, and the verdict is announced by a live region; the page with its verdict
then passes axe-core in every theme."""

from __future__ import annotations

import pytest

from tests.browser.axe import THEMES, described, use_theme, violations
from tests.browser.conftest import VERDICT_TIMEOUT_MS, sign_up
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
MOST_TABS = 80

FOCUSED = """() => {
    const el = document.activeElement;
    return {tag: el.tagName, id: el.id, role: el.getAttribute("role") || "", text: (el.textContent || "").trim().slice(0, 40),
            editor: Boolean(el.closest("#editor")), scroller: el.classList.contains("ace_scroller")};
}"""


def tab_until(page, wanted, backwards: bool = False) -> dict:
    """Press Tab (or Shift+Tab) until ``wanted(focused)``; fails after MOST_TABS presses."""
    for _ in range(MOST_TABS):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        focused = page.evaluate(FOCUSED)
        if wanted(focused):
            return focused
    raise AssertionError(f"Tab never reached it; focus ended on {page.evaluate(FOCUSED)}")


@pytest.mark.parametrize("theme", THEMES)
def test_a_student_solves_a_problem_with_the_keyboard_alone(site, page, theme):
    use_theme(page, theme)
    sign_up(page, site)
    page.goto(f"{site}/problems/{SLUG}/")
    page.wait_for_selector("#editor .ace_content")
    page.evaluate("() => document.activeElement.blur()")

    tab_until(page, lambda f: f["editor"] and f["scroller"])  # the editor, as one stop
    page.keyboard.press("Enter")  # start editing
    assert page.evaluate("() => window.judgeEditor.isFocused()")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.press("Tab")  # inside the editor Tab indents, as a programmer expects
    assert page.evaluate("() => window.judgeEditor.getValue()") == "    "
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(read_solution(SLUG))
    page.keyboard.press("Escape")  # leave the editor
    assert not page.evaluate("() => window.judgeEditor.isFocused()")

    tab_until(page, lambda f: f["id"] == "submit-button")
    page.keyboard.press("Enter")
    announced = page.locator("#result [role=status]#verdict-announcement")
    page.wait_for_selector("#result .result-panel[data-final=true]", timeout=VERDICT_TIMEOUT_MS)
    assert announced.inner_text().startswith("Submit #") and "Accepted" in announced.inner_text(), page.inner_text(
        "#result"
    )
    assert page.evaluate("() => window.judgeEditor.getValue()") == read_solution(SLUG)

    # The panel can be read by keyboard too: Tab reaches its link to the submission, and it opens with Enter.
    tab_until(page, lambda f: f["tag"] == "A" and f["text"].startswith("#"))
    page.keyboard.press("Enter")
    page.wait_for_url(f"{site}/submissions/*/")
    found = violations(page)
    assert not found, described(found)
    page.go_back()
    page.wait_for_selector("#editor .ace_content")


@pytest.mark.parametrize("theme", THEMES)
def test_a_wrong_answers_panel_passes_axe(site, page, theme):
    """The richest panel: a Run on the visible examples with wrong values (arrays, differences, a heatmap)."""
    use_theme(page, theme)
    sign_up(page, site)
    page.goto(f"{site}/problems/{SLUG}/")
    page.wait_for_selector("#editor .ace_content")
    page.evaluate("code => window.judgeEditor.setValue(code, -1)", read_solution(SLUG, "wrong/appended.py"))
    page.get_by_role("button", name="Run examples", exact=True).click()
    page.wait_for_selector("#result .result-panel[data-final=true]", timeout=VERDICT_TIMEOUT_MS)
    assert "Wrong answer" in page.inner_text("#verdict-announcement")
    page.evaluate("() => document.querySelectorAll('#result details').forEach(d => d.open = true)")
    found = violations(page)
    assert not found, described(found)
