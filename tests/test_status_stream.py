"""The status stream under ASGI (judge/asgi.py): server-sent events that wake a waiting page.

The ASGI application is driven directly, as uvicorn drives it: a scope, a receive and a send.  The worker's
side is the real one (claim, record, publish on Redis); the page's side reads the events it would receive.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time

import pytest
import redis
from django.conf import settings as django_settings

from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.asgi import application
from judge.grading import recording
from judge.submissions import push
from judge.submissions.models import Status
from judge.submissions.services import claims, intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"
pytestmark = pytest.mark.django_db(transaction=True)


def run_async(coroutine):
    """asyncio.run on a thread of its own: a browser test's Playwright may have left an event loop running in
    this worker's main thread, where asyncio.run refuses to start another."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)


@pytest.fixture
def queued(problems, student, no_enqueue):
    return intake.submit_solution(student, problems[SLUG], read_solution(SLUG))


def session_cookie(client, user) -> str:
    client.force_login(user)
    return f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"


class Page:
    """One EventSource's connection: what the server sent, and a way to drop it."""

    def __init__(self, pk: int, cookie: str, shown: str | None = None, last_event_id: str | None = None) -> None:
        headers = [(b"host", b"127.0.0.1:8000"), (b"cookie", cookie.encode()), (b"accept", b"text/event-stream")]
        if last_event_id:
            headers.append((b"last-event-id", last_event_id.encode()))
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": f"/submissions/{pk}/events/",
            "raw_path": b"",
            "query_string": f"shown={shown}".encode() if shown else b"",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        self.status_code: int | None = None
        self.body = b""
        self.finished = asyncio.Event()
        self.dropped = asyncio.Event()
        self.task = asyncio.ensure_future(application(self.scope, self.receive, self.send))

    async def receive(self) -> dict:
        await self.dropped.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        if message["type"] == "http.response.start":
            self.status_code = message["status"]
        else:
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                self.finished.set()

    def events(self) -> list[str]:
        return [line.removeprefix("data: ") for line in self.body.decode().splitlines() if line.startswith("data: ")]

    async def wait_for_event(self, status: str, timeout: float) -> float:
        started = time.monotonic()
        while status not in self.events():
            assert time.monotonic() - started < timeout, f"no {status!r} event within {timeout} s: {self.body!r}"
            await asyncio.sleep(0.01)
        return time.monotonic() - started

    async def drop(self) -> None:
        self.dropped.set()
        await asyncio.wait_for(self.task, 5)


def in_a_thread(change) -> threading.Thread:
    """The worker's side runs in a thread with its own database connection, as a worker process would."""
    from django.db import connection

    def run() -> None:
        try:
            change()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def worker_grades(pk: int) -> None:
    token = claims.claim_submission(pk)
    push.publish_status(pk, Status.RUNNING)
    assert recording.record_verdict(pk, token, GradeReport(Verdict.ACCEPTED))
    push.publish_status(pk, Status.DONE)


def test_a_verdict_arrives_on_the_stream_woken_by_redis(client, queued, student, settings):
    settings.PUSH_DB_POLL_S = 30.0  # so only the Redis message can wake the page in time
    settings.PUSH_QUEUED_WAIT_S = 30.0
    cookie = session_cookie(client, student)

    async def scenario() -> tuple[Page, float]:
        page = Page(queued.pk, cookie, shown=Status.QUEUED)
        await until(lambda: push.hub().connected)
        in_a_thread(lambda: worker_grades(queued.pk)).join(10)
        took = await page.wait_for_event(Status.DONE, timeout=5)
        await asyncio.wait_for(page.finished.wait(), 5)  # the stream ends with the verdict
        return page, took

    page, took = run_async(scenario())
    assert page.status_code == 200 and page.events()[-1] == Status.DONE
    assert took < 2.0


def test_every_waiting_page_of_a_process_shares_one_redis_connection(client, problems, student, no_enqueue, settings):
    settings.PUSH_DB_POLL_S = 30.0
    settings.PUSH_QUEUED_WAIT_S = 30.0
    waiting = [intake.submit_solution(student, problems[SLUG], f"x = {i}") for i in range(30)]
    cookie = session_cookie(client, student)
    observer = redis.Redis.from_url(settings.REDIS_URL)

    def hub_connections() -> int:
        return sum(1 for c in observer.client_list() if c.get("name") == push.hub_name())

    async def scenario() -> tuple[int, list[Page]]:
        pages = [Page(s.pk, cookie, shown=Status.QUEUED) for s in waiting]
        await until(lambda: push.hub().connected and len(push.hub().watches) == len(waiting))
        connections = await asyncio.to_thread(hub_connections)
        in_a_thread(lambda: worker_grades(waiting[7].pk)).join(10)
        await pages[7].wait_for_event(Status.DONE, timeout=5)
        others = [p for i, p in enumerate(pages) if i != 7]
        for page in pages:
            await page.drop()
        return connections, others

    connections, others = run_async(scenario())
    assert connections == 1
    assert all(Status.DONE not in page.events() for page in others)


def test_a_dropped_stream_resumes_with_what_changed_while_it_was_away(client, queued, student, settings):
    cookie = session_cookie(client, student)
    worker_grades(queued.pk)  # the verdict was recorded while the page was reconnecting

    async def scenario() -> tuple[Page, Page]:
        resumed = Page(queued.pk, cookie, shown=Status.QUEUED, last_event_id=Status.RUNNING)
        await asyncio.wait_for(resumed.finished.wait(), 5)
        settled = Page(queued.pk, cookie, shown=Status.QUEUED, last_event_id=Status.DONE)
        await asyncio.wait_for(settled.finished.wait(), 5)
        return resumed, settled

    resumed, settled = run_async(scenario())
    assert resumed.events() == [Status.DONE]  # Last-Event-ID wins over the ?shown= of the first request
    assert settled.status_code == 204  # the page has its verdict: EventSource stops reconnecting


def test_without_redis_the_stream_reads_the_database(client, queued, student, settings):
    settings.REDIS_URL = None  # the embedded default
    settings.PUSH_QUEUED_WAIT_S = 30.0
    cookie = session_cookie(client, student)

    async def scenario() -> float:
        page = Page(queued.pk, cookie, shown=Status.QUEUED)
        await asyncio.sleep(0.3)
        in_a_thread(lambda: worker_grades(queued.pk)).join(10)
        return await page.wait_for_event(Status.DONE, timeout=5)

    assert run_async(scenario()) < 2.0


def test_another_student_and_a_stranger_get_no_stream(client, queued, second_student):
    async def status_for(cookie: str) -> int:
        page = Page(queued.pk, cookie, shown=Status.QUEUED)
        await asyncio.wait_for(page.finished.wait(), 5)
        return page.status_code

    other = session_cookie(client, second_student)
    assert run_async(status_for(other)) == 404
    assert run_async(status_for("sessionid=forged")) == 404


async def until(condition, timeout: float = 5.0):
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout
        await asyncio.sleep(0.01)
    return True


def test_under_wsgi_a_running_submissions_response_stays_open_for_its_verdict(client, queued, student, settings):
    """runserver's one-request path: running, then the verdict, in one response; ending it after "running"
    left the page waiting out EventSource's reconnection delay before it heard of the verdict."""
    settings.REDIS_URL = None  # the embedded default: the view re-reads the database
    settings.PUSH_QUEUED_WAIT_S = 30.0
    client.force_login(student)
    token = claims.claim_submission(queued.pk)

    def record_later() -> None:
        time.sleep(0.5)
        assert recording.record_verdict(queued.pk, token, GradeReport(Verdict.ACCEPTED))

    response = client.get(f"/submissions/{queued.pk}/events/?shown=queued")
    grading = in_a_thread(record_later)
    body = b"".join(response.streaming_content).decode()
    grading.join(10)
    assert [line[6:] for line in body.splitlines() if line.startswith("data: ")] == ["running", "done"]
