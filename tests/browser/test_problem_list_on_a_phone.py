"""The problem list on a 390 px phone in Chromium: nothing scrolls sideways and the navigation takes at most two
lines (issue 25 §2: the list was 630 px wide and the navigation wrapped to three lines)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PASSWORD, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAYOUT = """() => {
    const header = document.querySelector("header.top");
    const link = header.querySelector(".main-nav a:not(.brand)");
    const line = link.getBoundingClientRect().height;
    const tops = new Set([...header.querySelectorAll("a, button")]
        .filter(el => el.getClientRects().length).map(el => Math.round(el.getBoundingClientRect().top / line)));
    return {page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
            tables: Math.max(...[...document.querySelectorAll("table.problems")]
                .map(t => t.getBoundingClientRect().right)),
            lines: tops.size};
}"""


def test_the_problem_list_fits_a_phone(live_server, chromium, problems, django_user_model):
    django_user_model.objects.create_user("phone_user_with_a_long_name", password=PASSWORD)
    context = chromium.new_context(viewport=PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, live_server.url, "phone_user_with_a_long_name")
    page.wait_for_selector("section.track table.problems tr[data-slug]")
    layout = page.evaluate(LAYOUT)
    screenshot(page, "problem-list-390px")
    assert layout["page"] <= layout["window"] == 390, layout
    assert layout["tables"] <= 390, layout
    assert layout["lines"] <= 2, layout
    context.close()
