"""In Chromium: code over the size limit is refused with a message in the page, not a silent bare 400."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_problem, screenshot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


def test_pasting_code_over_the_size_limit_shows_why_it_was_not_run(live_server, problems, page, settings):
    settings.REQUEST_BODY_LIMITS = {**settings.REQUEST_BODY_LIMITS, "submit": 200_000, "draft-save": 200_000}
    sign_up(page, live_server.url)
    open_problem(page, live_server.url, SLUG)
    page.evaluate("window.judgeEditor.setValue('x = 1\\n'.repeat(60000), -1)")
    page.get_by_role("button", name="Run examples", exact=True).click()
    alert = page.wait_for_selector("#result [role=alert]")
    text = alert.inner_text()
    assert text.startswith("Not submitted: the request is")
    assert "this page accepts at most 200,000 bytes (the code may be at most 65,536 bytes)" in text
    page.wait_for_function("() => document.getElementById('draft-state').textContent.startsWith('Draft not saved')")
    assert "this page accepts at most 200,000 bytes" in page.inner_text("#draft-state")
    screenshot(page, "code-too-large")
