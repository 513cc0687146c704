"""The verdict is pushed to the page: a status stream, a long poll when the stream is refused, and plain
polling when that fails too."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import open_problem, replace_code, sign_up, submit_and_wait
from tests.conftest import read_solution

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
STATUS = re.compile(r"/submissions/\d+/(status|events)/")
EVENTS = re.compile(r".*/submissions/\d+/events/.*")


def status_requests(page) -> list[str]:
    asked = []
    page.on("request", lambda request: asked.append(request.url) if STATUS.search(request.url) else None)
    return asked


def test_the_verdict_arrives_on_the_stream_without_polling(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG))
    asked = status_requests(page)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert any("/events/" in url for url in asked) and not any("?wait=" in url for url in asked)
    # queued -> running -> done: the page fetches its fragment once per change the stream announces (the
    # test server is WSGI: one event per stream request, so the stream's own requests are counted too).
    fetched = [url for url in asked if "/status/" in url]
    assert 1 <= len(fetched) <= 3, asked
    settled = len(asked)
    page.wait_for_timeout(1500)
    assert len(asked) == settled, asked  # nothing more after the verdict


def test_a_stream_event_that_crosses_the_verdict_leaves_the_final_panel_alone(site, page):
    """Between htmx swapping in the final panel and settling it (when the stream is closed), a stream event
    used to fetch the panel's missing poll URL, that is the problem page itself, into the result: on a
    loaded machine the page showed inside itself, its Submissions list twice."""
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG))
    page.evaluate("window.htmx.config.defaultSettleDelay = 2000")  # that moment, made long enough to hit
    page.route(
        EVENTS,
        lambda route: route.fulfill(  # an event every 50 ms
            status=200, headers={"Content-Type": "text/event-stream"}, body="retry: 50\n\nevent: status\ndata: x\n\n"
        ),
    )
    asked = status_requests(page)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    page.wait_for_timeout(2500)
    assert page.locator("#result header, #result main").count() == 0
    assert page.locator("#history").count() == 1
    assert page.inner_text("#result #verdict") == "Accepted"
    assert len([url for url in asked if "/events/" in url]) > 1  # the events did keep coming


def test_when_the_stream_is_refused_the_page_long_polls(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG))
    page.route(EVENTS, lambda route: route.fulfill(status=502, body="bad gateway"))  # a proxy without streams
    asked = status_requests(page)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert any("?wait=" in url for url in asked)


def test_when_the_long_poll_fails_too_the_page_falls_back_to_polling(site, page):
    sign_up(page, site)
    open_problem(page, site, SLUG)
    replace_code(page, read_solution(SLUG))
    page.route(EVENTS, lambda route: route.abort())  # cut, again and again
    page.route(re.compile(r".*/status/\?wait=.*"), lambda route: route.abort())  # a proxy that cuts long requests
    asked = status_requests(page)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert any("?wait=" not in url for url in asked)  # the plain poll brought it
