"""The verdict is pushed to the page: one long poll per status change, and plain polling when that fails."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import open_problem, replace_code, sign_up, submit_and_wait
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
STATUS = re.compile(r"/submissions/\d+/status/")


def status_requests(page) -> list[str]:
    asked = []
    page.on("request", lambda request: asked.append(request.url) if STATUS.search(request.url) else None)
    return asked


def test_the_verdict_arrives_by_long_poll_without_repeated_polling(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG))
    asked = status_requests(page)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert asked and all("?wait=" in url for url in asked)
    # queued -> running -> done: at most one request per change (polling every 0.7 s would need more
    # whenever grading takes longer than that), and none after the verdict.
    assert len(asked) <= 3, asked
    page.wait_for_timeout(1500)
    assert len(asked) <= 3, asked


def test_when_the_long_poll_fails_the_page_falls_back_to_polling(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG))
    page.route(re.compile(r".*/status/\?wait=.*"), lambda route: route.abort())  # a proxy that cuts long requests
    asked = status_requests(page)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert any("?wait=" not in url for url in asked)  # the plain poll brought it
