"""A lecture hall of pages waiting on the status stream (judge/asgi.py): what waiting costs the database.

Many streams wait on one submission, as a hall's pages (or one student's tabs) do; the worker's side is the real
one (claim, record, publish on Redis).  The reads of that submission's row are counted on every connection the
web side opens, whichever thread opens it.  Only that row's: this process may also serve an earlier test's
requests still running (the live server's long poll of another submission wakes at its timeout, on a fresh
connection), and those are not the hall's.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

import pytest
from django.db.backends.signals import connection_created

from judge.pages import stream
from judge.submissions import push
from judge.submissions.models import Status
from judge.submissions.services import claims
from tests.test_status_stream import Page, in_a_thread, queued, run_async, session_cookie, until, worker_grades  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

HALL = 200


class SubmissionReads:
    """Every SELECT of one submission's row sent on a connection opened while counting."""

    def __init__(self, pk: int) -> None:
        self.pk = pk
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, execute, sql, params, many, context):
        if self.reads_the_row(sql, params):
            with self.lock:
                self.count += 1
        return execute(sql, params, many, context)

    def reads_the_row(self, sql: str, params) -> bool:
        if not sql.lstrip().upper().startswith("SELECT") or '"submissions_submission"' not in sql:
            return False
        values = params.values() if isinstance(params, dict) else params or ()
        return self.pk in values

    def install(self, sender, connection, **kwargs) -> None:
        connection.execute_wrappers.append(self)


@contextlib.contextmanager
def counting_reads(pk: int):
    reads = SubmissionReads(pk)
    connection_created.connect(reads.install)  # a stream's read opens its connection and closes it after
    try:
        yield reads
    finally:
        connection_created.disconnect(reads.install)


@pytest.fixture
def short_keep_alives(monkeypatch, settings):
    """Keep-alives every 50-100 ms instead of 15-30 s, so a test sees many of them."""
    monkeypatch.setattr(stream, "KEEPALIVE_S", 0.05)
    settings.PUSH_DB_POLL_S = 30.0  # only Redis wakes a stream in time


def all_watching(pk: int, pages: int) -> bool:
    """The hub is listening, every page waits on the submission, and its status has been read."""
    watch = push.hub().watches.get(pk)
    return push.hub().connected and watch is not None and watch.streams == pages and watch.fresh


def keep_alives(page: Page) -> int:
    return page.body.count(b": still waiting")


def test_one_verdict_reaches_every_page_waiting_on_it_with_one_read(client, queued, student, settings):
    settings.PUSH_DB_POLL_S = 30.0
    cookie = session_cookie(client, student)
    token = claims.claim_submission(queued.pk)

    async def scenario() -> tuple[list[Page], int]:
        pages = [Page(queued.pk, cookie, shown=Status.RUNNING) for _ in range(HALL)]
        await until(lambda: all_watching(queued.pk, HALL), timeout=30)
        with counting_reads(queued.pk) as reads:
            in_a_thread(lambda: finish(queued.pk, token)).join(10)
            for page in pages:
                await page.wait_for_event(Status.DONE, timeout=10)
        await asyncio.gather(*(asyncio.wait_for(page.finished.wait(), 5) for page in pages))
        return pages, reads.count

    pages, reads = run_async(scenario())
    assert all(page.status_code == 200 and page.events() == [Status.DONE] for page in pages)
    assert reads == 1  # one read served the whole hall


def finish(pk: int, token) -> None:
    from engine.grading import GradeReport
    from engine.verdicts import Verdict
    from judge.grading import recording

    assert recording.record_verdict(pk, token, GradeReport(Verdict.ACCEPTED))
    push.publish_status(pk, Status.DONE)


def test_waiting_pages_read_nothing_at_their_keep_alives(client, queued, student, short_keep_alives):
    cookie = session_cookie(client, student)
    claims.claim_submission(queued.pk)

    async def scenario() -> tuple[list[Page], int]:
        pages = [Page(queued.pk, cookie, shown=Status.RUNNING) for _ in range(HALL)]
        await until(lambda: all_watching(queued.pk, HALL), timeout=30)
        with counting_reads(queued.pk) as reads:
            await until(lambda: all(keep_alives(page) >= 5 for page in pages), timeout=30)
        for page in pages:
            await page.drop()
        return pages, reads.count

    pages, reads = run_async(scenario())
    assert sum(keep_alives(page) for page in pages) >= 5 * HALL
    assert all(page.events() == [] for page in pages)  # still running: nothing to tell
    assert reads == 0


def test_a_page_whose_worker_died_is_told_its_submission_is_queued_again(client, queued, student, settings):
    settings.PUSH_DB_POLL_S = 30.0
    settings.STALE_AFTER_S = 0
    cookie = session_cookie(client, student)
    claims.claim_submission(queued.pk)  # and the worker that claimed it stops beating

    async def scenario() -> Page:
        page = Page(queued.pk, cookie, shown=Status.RUNNING)
        await until(lambda: all_watching(queued.pk, 1), timeout=30)
        in_a_thread(claims.recover_stalled_submissions).join(10)
        await page.wait_for_event(Status.QUEUED, timeout=10)
        await page.drop()
        return page

    assert run_async(scenario()).events() == [Status.QUEUED]
