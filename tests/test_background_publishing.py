"""bin/run's first start: the problems are imported at once and gated in the background, two at a time.

The site answers meanwhile: the problem list says how many problems are still being prepared and shows
each one as its gate passes.  A second start finds every package unchanged and gates nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import threading
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.db import connection
from django.utils import timezone

from judge.authoring import gate_runs, sync
from judge.problems.models import STALLED_AFTER_S, GateRun, GateStatus, KnownWrongOutcome, Problem, SyncRun, TestSet
from sandbox.backends.base import GenerateJob, Sandbox
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
    monkeypatch.setattr(gate_runs, "passed_gates", gate_runs.PassedGates(kept=128))
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
        slugs, _page = wait_until(
            lambda: (found := listed_slugs(client)) and "3 more problems are still being prepared" in found[1] and found
        )
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


def notice_count(client, shown: int = 99) -> int:
    """The count the list's notice shows after its next poll (0: the notice is gone)."""
    response = client.get(f"/preparing/?shown={shown}")
    found = re.search(r"(\d+) more problems? (?:is|are) still being prepared", response.content.decode())
    return int(found[1]) if found else 0


def test_the_notice_counts_every_problem_from_the_sync_s_first_second_and_never_counts_up(
    client, gate_store, monkeypatch
):
    release, loading = threading.Event(), threading.Event()
    replaying = RecordingSandbox(gate_store.sandbox, replay=True)
    for slug in FIRST_THREE:
        replaying.replies.update(gate_store.gated(slug).sandbox.replies)
    held = HeldSandbox(replaying, release)
    monkeypatch.setattr(gate_runs, "passed_gates", gate_runs.PassedGates(kept=128))
    monkeypatch.setattr(sync, "lazy_sandbox", lambda _sandbox=None: contextlib.nullcontext(held))
    load_package = sync.load_package
    monkeypatch.setattr(sync, "load_package", lambda path: loading.wait(60) and load_package(path))

    def first_start() -> None:
        try:
            sync.sync_problems(only=FIRST_THREE, jobs=2)
        finally:
            connection.close()

    background = threading.Thread(target=first_start)
    background.start()
    seen = []
    try:
        # Before a single package is read, let alone imported, the notice counts all three.
        seen.append(wait_until(lambda: notice_count(client), timeout=30))
        assert seen == [3] and "3 more problems are still being prepared" in listed_slugs(client)[1]
        loading.set()
        release.set()
        while background.is_alive():
            seen.append(notice_count(client, shown=seen[-1]))
            time.sleep(0.05)
    finally:
        loading.set()
        release.set()
        background.join(180)
    seen.append(notice_count(client))
    assert seen == sorted(seen, reverse=True) and seen[-1] == 0
    assert listed_slugs(client)[0] == set(FIRST_THREE)


def test_the_notice_s_poll_answers_the_current_count_and_stops_at_zero(client, problems):
    running = SyncRun.objects.create(waiting=["not_imported_yet", "nor_this_one", FIRST_THREE[0]])
    response = client.get("/preparing/?shown=2")
    assert response.status_code == 200 and "2 more problems are still being prepared" in response.content.decode()
    assert "HX-Trigger" not in response  # nothing new to list: the list stays as it is
    assert client.get("/preparing/?shown=3")["HX-Trigger"] == "judge:problems-listed"  # one was listed since

    SyncRun.objects.filter(pk=running.pk).update(finished_at=timezone.now())
    response = client.get("/preparing/?shown=2")
    assert response.status_code == 286 and not response.content.strip()  # htmx stops polling; the notice goes
    assert response["HX-Trigger"] == "judge:problems-listed"


def test_the_notice_refreshes_itself_and_the_list_without_a_reload(client, problems):
    SyncRun.objects.create(waiting=["not_imported_yet", "nor_this_one"])
    page = client.get("/?q=class").content.decode()
    notice = re.search(r'<div id="preparing" role="status">\s*<p class="notice" ([^>]*)>', page)
    assert notice, "the notice sits in a live region that stays while the notice replaces itself"
    assert 'hx-get="/preparing/?shown=2"' in notice[1] and 'hx-swap="outerHTML"' in notice[1]
    assert re.search(r'hx-trigger="every \d+s"', notice[1])
    fragment = client.get("/preparing/?shown=2").content.decode()
    assert 'hx-get="/preparing/?shown=2"' in fragment and "every " in fragment  # and keeps polling after its swap
    rows = re.search(r'<div id="problem-list" ([^>]*)>', page)
    assert rows and 'hx-trigger="judge:problems-listed from:body"' in rows[1]
    assert 'hx-get="/?q=class"' in rows[1] and 'hx-select="#problem-list"' in rows[1]  # the same filters
    assert 'hx-select-oob="#course-progress"' in rows[1] and 'id="course-progress"' in page


def test_a_sync_stopped_midway_is_counted_until_the_next_or_until_it_goes_quiet(client, problems):
    stopped = GateRun.objects.create(problem=problems[FIRST_THREE[0]], package_hash="x", trigger="sync")
    stopped_sync = SyncRun.objects.create(waiting=["not_imported_yet"])
    assert "1 more problem is still being prepared" in listed_slugs(client)[1]
    quiet_since = timezone.now() - timedelta(seconds=STALLED_AFTER_S + 1)
    SyncRun.objects.filter(pk=stopped_sync.pk).update(heartbeat_at=quiet_since)
    assert "still being prepared" not in listed_slugs(client)[1]  # no gate ended for that long: it died

    SyncRun.objects.filter(pk=stopped_sync.pk).update(heartbeat_at=timezone.now())
    problems[FIRST_THREE[0]].__class__.objects.filter(pk=stopped.problem_id).update(current_test_set=None)
    sync.sync_problems(only=FIRST_THREE[:1])
    stopped.refresh_from_db()
    assert stopped.status == GateStatus.DONE and stopped.error == "replaced by a newer import"
    assert "still being prepared" not in listed_slugs(client)[1]


def queued(pk: int, builds_on: tuple[str, ...] = (), fails_with: tuple[str, ...] = ()):
    """A gate for ``gate_in_order``: problem ``p<pk>``, with known-wrong solutions that fail ``fails_with``."""
    package = SimpleNamespace(
        slug=f"p{pk}",
        problem=SimpleNamespace(builds_on=builds_on, time_limit_s=30.0),
        wrong=[SimpleNamespace(fails_with=check) for check in fails_with],
    )
    return package, SimpleNamespace(run=SimpleNamespace(pk=pk), listing=False)


def test_a_gate_waiting_for_what_it_builds_on_holds_no_job_another_gate_could_use(monkeypatch):
    """Two jobs, three gates in learning-path order: the second builds on the first, the third on nothing."""
    third_started, log = threading.Event(), []

    def gate(item, _box, beat):
        log.append(("start", item.run.pk))
        if item.run.pk == 3:
            third_started.set()
        if item.run.pk == 1:  # the first gate ends only once the third has started beside it
            assert third_started.wait(10), "the third gate did not start while the first was running"
        log.append(("end", item.run.pk))
        beat()
        return item.run.pk

    monkeypatch.setattr(sync, "gate_imported", gate)
    beats = []
    outcomes = sync.gate_in_order(
        [queued(1), queued(2, ("p1",)), queued(3)], None, jobs=2, beat=lambda: beats.append(1)
    )
    assert outcomes == {1: 1, 2: 2, 3: 3} and len(beats) == 3
    assert log.index(("start", 3)) < log.index(("end", 1))  # the third ran beside the first,
    assert log.index(("start", 2)) > log.index(("end", 1))  # the second only once the first was through


def test_a_gate_that_must_run_out_a_time_limit_starts_first_and_the_rest_keep_the_learning_path(monkeypatch):
    log = []

    def gate(item, _box, beat):
        log.append(("start", item.run.pk))
        time.sleep(0.2)
        log.append(("end", item.run.pk))
        return item.run.pk

    monkeypatch.setattr(sync, "gate_imported", gate)
    gates = [
        queued(1, fails_with=("wrong_value",)),
        queued(2),
        queued(3),
        queued(4, fails_with=("time_limit_exceeded",)),
    ]
    sync.gate_in_order(gates, None, jobs=2)
    assert {log[0], log[1]} == {("start", 4), ("start", 1)}  # the slow one beside the first of the path
    assert [pk for event, pk in log if event == "start" and pk != 4] == [1, 2, 3]


class SecondPartHeld(Sandbox):
    """Answers the generator and the reference at once; holds every other job (the starter, the known-wrong
    solutions: the gate's second part) until the test lets them go."""

    def __init__(self, inner: Sandbox, references: set[str], release: threading.Event) -> None:
        self.inner, self.references, self.release, self.lock = inner, references, release, threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    def run(self, job):
        if getattr(job, "code", None) not in self.references and not isinstance(job, GenerateJob):
            assert self.release.wait(120), "the test never let the second parts go"
        with self.lock:
            return self.inner.run(job)

    def close(self) -> None:
        pass


def replaying_sandbox(gate_store) -> RecordingSandbox:
    replaying = RecordingSandbox(gate_store.sandbox, replay=True)
    for slug in FIRST_THREE:
        replaying.replies.update(gate_store.gated(slug).sandbox.replies)
    return replaying


def test_a_fresh_start_lists_every_problem_once_its_expected_outputs_are_proven_and_finishes_the_gates_after(
    client, gate_store, monkeypatch
):
    release = threading.Event()
    references = {gate_store.gated(slug).package.solution for slug in FIRST_THREE}
    held = SecondPartHeld(replaying_sandbox(gate_store), references, release)
    monkeypatch.setattr(gate_runs, "passed_gates", gate_runs.PassedGates(kept=128))
    monkeypatch.setattr(sync, "lazy_sandbox", lambda _sandbox=None: contextlib.nullcontext(held))
    outcomes = []

    def first_start() -> None:
        try:
            outcomes.extend(sync.sync_problems(only=FIRST_THREE, jobs=2))
        finally:
            connection.close()

    background = threading.Thread(target=first_start)
    background.start()
    try:
        # Every problem is listed while no known-wrong solution has run yet, and a student can open it.
        slugs, page = wait_until(lambda: (found := listed_slugs(client)) and len(found[0]) == 3 and found)
        assert slugs == set(FIRST_THREE) and "still being prepared" not in page
        assert client.get(f"/problems/{FIRST_THREE[0]}/").status_code == 200
        listing = Problem.objects.get(slug=FIRST_THREE[0]).current_test_set
        assert listing.version.startswith(gate_runs.LISTING_MARK)
        assert not KnownWrongOutcome.objects.filter(case__test_set=listing).exists()
        assert GateRun.objects.filter(status=GateStatus.RUNNING).count() == 3  # the rest is still to run
    finally:
        release.set()
        background.join(180)
    assert sorted(o.action for o in outcomes) == ["created"] * 3
    for slug in FIRST_THREE:
        problem = Problem.objects.get(slug=slug)
        assert problem.published and problem.current_test_set.version == problem.package_hash
        assert KnownWrongOutcome.objects.filter(case__test_set=problem.current_test_set).exists()
        assert list(TestSet.objects.filter(problem=problem)) == [problem.current_test_set]  # no Submit kept a copy
    assert set(GateRun.objects.values_list("status", "passed")) == {(GateStatus.DONE, True)}


def test_a_problem_whose_tests_miss_a_known_wrong_solution_is_hidden_again_after_listing(
    client, gate_store, monkeypatch
):
    """The second part failed (a known-wrong solution passed every test): the problem leaves the list."""
    slug = FIRST_THREE[0]
    gated = gate_store.gated(slug)
    replaying = replaying_sandbox(gate_store)

    class WrongPasses(Sandbox):  # a known-wrong solution's run answered with the reference's
        name = "wrong-passes"

        def run(self, job):
            if getattr(job, "code", None) in {w.code for w in gated.package.wrong}:
                return replaying.run(dataclasses.replace(job, code=gated.package.solution))
            return replaying.run(job)

        def close(self) -> None:
            pass

    monkeypatch.setattr(gate_runs, "passed_gates", gate_runs.PassedGates(kept=128))
    (outcome,) = sync.sync_problems(only=[slug], sandbox=WrongPasses())
    assert outcome.action == "draft" and "wrong" in outcome.note
    problem = Problem.objects.get(slug=slug)
    assert not problem.published and slug not in listed_slugs(client)[0]
    run = GateRun.objects.get(problem=problem)
    assert run.status == GateStatus.DONE and run.passed is False


def test_a_start_stopped_before_the_rest_of_a_gate_ran_gates_that_problem_again_on_the_next_start(
    gate_store, monkeypatch
):
    slug = FIRST_THREE[0]
    replaying = replaying_sandbox(gate_store)
    monkeypatch.setattr(gate_runs, "passed_gates", gate_runs.PassedGates(kept=128))

    def stopped(listed, box):  # Ctrl-C on bin/run once the problem was listed
        raise KeyboardInterrupt

    monkeypatch.setattr(sync, "finish_gate_run", stopped)
    with pytest.raises(KeyboardInterrupt):
        sync.sync_problems(only=[slug], sandbox=replaying)
    problem = Problem.objects.get(slug=slug)
    assert problem.published and problem.current_test_set.version.startswith(gate_runs.LISTING_MARK)

    monkeypatch.undo()
    monkeypatch.setattr(gate_runs, "passed_gates", gate_runs.PassedGates(kept=128))
    (outcome,) = sync.sync_problems(only=[slug], sandbox=replaying)  # the next start
    assert outcome.action == "updated"
    problem.refresh_from_db()
    assert problem.published and problem.current_test_set.version == problem.package_hash
    assert KnownWrongOutcome.objects.filter(case__test_set=problem.current_test_set).exists()
