"""A student runs their code on inputs of their own, and sees the reference's expected output beside theirs."""

from __future__ import annotations

import pytest

from judge.submissions.models import Submission
from tests.browser.conftest import VERDICT_TIMEOUT_MS, open_problem, replace_code, screenshot, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
APPENDS = """import numpy as np

def prepend_class_token(patches, cls_token):
    tiled = np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2]))
    return np.concatenate([patches, tiled], axis=1)
"""


def test_a_student_edits_an_input_runs_and_sees_expected_against_their_result(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, APPENDS)
    page.click("#custom-input summary")
    patches = page.locator("#input-patches")
    assert patches.input_value().startswith("[[[1.0, 2.0, 3.0]")  # prefilled from the first example
    patches.fill("[[[1, 2], [3, 4]]]")
    page.fill("#input-cls_token", "np.array([[[9, 8]]])")
    page.get_by_role("button", name="Run with this input").click()
    panel = page.wait_for_selector("#result .result-panel[data-final=true]", timeout=VERDICT_TIMEOUT_MS)
    assert "on your input" in panel.query_selector(".kind").inner_text()
    assert panel.query_selector("#verdict").inner_text() == "Wrong answer"
    arrays = panel.query_selector("details.arrays").inner_text().replace(" ", "")
    assert "[[[9.,8.]," in arrays and "[3.,4.],\n[9.,8.]]]" in arrays  # expected first, then what they returned
    screenshot(page, "custom_input")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        clipped = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not clipped, f"the page scrolls sideways at {width} px"


def test_a_bad_literal_shows_its_error_at_the_field_and_submits_nothing(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    page.click("#custom-input summary")
    page.fill("#input-patches", "[[1, 2], [3]]")
    page.get_by_role("button", name="Run with this input").click()
    error = page.wait_for_selector("#custom-error-patches:not(:empty)")
    assert "ragged" in error.inner_text()
    assert "Not submitted: fix the custom input" in page.locator("#result").inner_text()
    assert not Submission.objects.exists()
