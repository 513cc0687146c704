"""bin/run's first start: the problems are imported at once and gated in the background, two at a time.

The site answers meanwhile: the problem list says how many problems are still being prepared and shows
each one as its gate passes.  A second start finds every package unchanged and gates nothing.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time

import pytest
from django.db import connection

from judge.authoring import gate_runs, sync
from judge.problems.models import GateRun
from sandbox.backends.base import Sandbox
from tests.conftest import FIRST_THREE
from tests.recording import RecordingSandbox

pytestmark = pytest.mark.django_db(transaction=True)


class HeldSandbox(Sandbox):
    """The session's sandbox, holding every job until the test lets the gates go; one job at a time."""

    def __init__(self, inner: Sandbox, release: threading.Event) -> None:
        self.inner, self.release, self.lock = inner, release, threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    def run(self, job):
        assert self.release.wait(60), "the test never let the gates go"
        with self.lock:
            return self.inner.run(job)

    def close(self) -> None:
        pass


def listed_slugs(client) -> tuple[set[str], str]:
    page = client.get("/").content.decode()
    return set(re.findall(r'data-slug="([^"]+)"', page)), page


def wait_until(check, timeout: float = 120.0):
    started = time.monotonic()
    while not (result := check()):
        assert time.monotonic() - started < timeout
        time.sleep(0.1)
    return result


def test_the_list_counts_problems_being_prepared_and_shows_each_once_published(client, gate_store, monkeypatch):
    release = threading.Event()
    # The site gates for real here, in the held sandbox (no passed gate taken from the test run's store);
    # the gates' jobs are answered from the store's runs of them, the secret draws run.
    replaying = RecordingSandbox(gate_store.sandbox, replay=True)
    for slug in FIRST_THREE:
        replaying.replies.update(gate_store.gated(slug).sandbox.replies)
    held = HeldSandbox(replaying, release)
    monkeypatch.setattr(gate_runs, "_passed_gates", {})
    monkeypatch.setattr(sync, "lazy_sandbox", lambda _sandbox=None: contextlib.nullcontext(held))
    outcomes = []

    def first_start() -> None:  # what bin/run starts in the background
        try:
            outcomes.extend(sync.sync_problems(only=FIRST_THREE, jobs=2))
        finally:
            connection.close()

    background = threading.Thread(target=first_start)
    background.start()
    try:
        slugs, _page = wait_until(lambda: (found := listed_slugs(client))
                                  and "3 more problems are still being prepared" in found[1] and found)
        assert not slugs  # nothing is shown before its gate has passed
    finally:
        release.set()
        background.join(180)
    assert sorted(o.action for o in outcomes) == ["created"] * 3
    slugs, page = listed_slugs(client)
    assert slugs == set(FIRST_THREE) and "still being prepared" not in page

    runs = GateRun.objects.count()
    assert [o.action for o in sync.sync_problems(only=FIRST_THREE)] == ["unchanged"] * 3  # the second start
    assert GateRun.objects.count() == runs


def test_a_sync_stopped_midway_leaves_nothing_counted_after_the_next(client, problems):
    from judge.problems.models import GateStatus

    stopped = GateRun.objects.create(problem=problems[FIRST_THREE[0]], package_hash="x", trigger="sync")
    assert "1 more problem is still being prepared" in listed_slugs(client)[1]
    problems[FIRST_THREE[0]].__class__.objects.filter(pk=stopped.problem_id).update(current_test_set=None)
    sync.sync_problems(only=FIRST_THREE[:1])
    stopped.refresh_from_db()
    assert stopped.status == GateStatus.DONE and stopped.error == "replaced by a newer import"
    assert "still being prepared" not in listed_slugs(client)[1]
