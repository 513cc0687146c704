"""A problem whose function takes a plain int: the page shows it as one, and the student's code receives one."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_problem, replace_code, screenshot, sign_up, submit_and_wait
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "split_heads"
SYNCED_PROBLEMS = ["prepend_class_token", "split_heads"]
# Fails unless n_heads arrives as a Python int, not a 0-d array or a float.
STRICT = (
    read_solution(SLUG)
    + """

_reference = split_heads


def split_heads(x, n_heads):
    assert type(n_heads) is int, f"n_heads arrived as {type(n_heads).__name__}"
    return _reference(x, n_heads)
"""
)


def test_a_student_solves_split_heads_with_n_heads_as_a_plain_int(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    example = page.locator(".example").first.inner_text()
    assert "n_heads = 2" in example and "int" in example  # shown as the function receives it, not as an array
    replace_code(page, STRICT)
    run = submit_and_wait(page, "Run examples")
    assert run.query_selector("#verdict").inner_text() == "Accepted"
    screenshot(page, "scalar-run")
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    screenshot(page, "scalar-accepted")
