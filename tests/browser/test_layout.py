"""In Chromium at 1280 px and on a 390 px phone: nothing on the problem page is cut off or scrolls sideways.

Statement code blocks wrap, the editor wraps long lines, the array grid of a result fits its pane, and the
history table keeps "#15" on one line.
"""

from __future__ import annotations

import pytest

from engine.verdicts import Verdict
from judge.submissions.models import Kind
from tests.browser.conftest import PASSWORD, log_in, open_problem, replace_code, screenshot, submit_and_wait
from tests.conftest import read_solution
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "scaled_dot_product_attention"
VIEWPORTS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LONG_LINE = "    scores = Q @ K.T / np.sqrt(Q.shape[-1])  # " + "a long comment that goes on and on " * 6

# Elements wider than the window, and boxes whose content scrolls sideways inside them.
OVERFLOW = """() => {
    const width = document.documentElement.clientWidth;
    const visible = el => el.offsetParent !== null && el.getClientRects().length > 0;
    const out = [];
    if (document.documentElement.scrollWidth > width + 1) out.push("page " + document.documentElement.scrollWidth);
    for (const el of document.querySelectorAll("main pre, main table, main .array-grid, main .statement, #editor")) {
        if (!visible(el)) continue;
        const box = el.getBoundingClientRect();
        if (box.right > width + 1) out.push(el.tagName + "." + el.className + " ends at " + Math.round(box.right));
        if (el.tagName === "PRE" && el.scrollWidth > el.clientWidth + 1)
            out.push("pre." + el.className + " scrolls " + el.scrollWidth + " > " + el.clientWidth);
    }
    return out;
}"""


def assert_nothing_cut_off(page) -> None:
    cut_off = page.evaluate(OVERFLOW)
    assert cut_off == [], "\n".join(cut_off)


@pytest.fixture
def student_with_history(django_user_model, problems):
    person = django_user_model.objects.create_user("layout", password=PASSWORD)
    for minute in range(15):
        graded(person, problems[SLUG], Verdict.WRONG_ANSWER, kind=Kind.RUN, minute=minute)
    return person


@pytest.mark.parametrize("size", VIEWPORTS)
def test_nothing_on_the_problem_page_is_cut_off(live_server, chromium, student_with_history, grading_worker, size):
    context = chromium.new_context(viewport=VIEWPORTS[size])
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, live_server.url, "layout")
    open_problem(page, live_server.url, SLUG)
    screenshot(page, f"layout-statement-{size}")
    assert_nothing_cut_off(page)  # the statement, with its code blocks
    screenshot(page, f"layout-statement-{size}")

    code = read_solution(SLUG).replace("import numpy as np\n", "import numpy as np\n" + "# " + LONG_LINE + "\n", 1)
    replace_code(page, code.replace("return", "return 2 *", 1) if "return" in code else code)
    assert page.evaluate("window.judgeEditor.session.getUseWrapMode()")
    assert page.evaluate("window.judgeEditor.renderer.scrollBarH.isVisible") is False
    submit_and_wait(page, "Run examples")
    page.locator("#result details.arrays[open]").first.scroll_into_view_if_needed()
    assert_nothing_cut_off(page)  # the result panel and its array grid
    screenshot(page, f"layout-result-{size}")

    page.get_by_role("tab", name="Submissions").click()
    page.wait_for_selector("#history table.history")
    ids = page.locator("table.history td:first-child a")
    assert ids.count() >= 15
    assert page.evaluate("""() => [...document.querySelectorAll("table.history td:first-child a")]
        .every(a => a.getClientRects().length === 1)""")  # "#15" stays on one line
    assert_nothing_cut_off(page)
    screenshot(page, f"layout-history-{size}")
    context.close()
