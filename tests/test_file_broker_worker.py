"""Through a real Celery worker on the embedded default's file-system broker: an empty and a truncated message
file in its queue folder are set aside, and the worker lives on and grades (with kombu's own transport the
first of them ended the worker, every time)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from judge.submissions.models import WorkerHeartbeat
from judge.submissions.workers import grading_state
from tests.conftest import REPO, read_solution
from tests.test_fair_share_worker import SUBMIT
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
EMBEDDED = {"CELERY_BROKER_URL": "filesystem://", "REDIS_URL": ""}


def test_a_worker_sets_aside_empty_and_truncated_messages_and_goes_on_grading(
    problems, student, worker_env, start_worker, tmp_path
):
    queue = tmp_path / "broker" / "queue"
    queue.mkdir(parents=True)
    stamp = int(time.monotonic() * 1000)
    empty = queue / f"{stamp}_empty.submit.msg"
    truncated = queue / f"{stamp}_truncated.run.msg"
    empty.write_bytes(b"")
    truncated.write_bytes(b'{"body": "W1sxXSwge30sIHsiY2FsbGJh')
    worker = start_worker(env=EMBEDDED)
    damaged = tmp_path / "broker" / "damaged"
    log = tmp_path / "worker.log"
    wait_for(
        lambda: damaged.is_dir() and {p.name for p in damaged.iterdir()} == {empty.name, truncated.name},
        60,
        "both damaged messages set aside",
        log,
    )
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            SUBMIT.format(user=student.pk, slug=SLUG, code=read_solution(SLUG)),
        ],
        cwd=REPO,
        env=worker_env | EMBEDDED,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    graded = wait_for(lambda: final(int(done.stdout.split()[-1])), 90, "a verdict after the damaged messages", log)
    assert graded.verdict == "accepted"
    assert worker.process.poll() is None, log.read_text()[-3000:]
    text = log.read_text()
    assert "Unrecoverable error" not in text
    assert f"The broker message {empty.name} could not be read" in text


def test_a_worker_beats_while_it_runs_and_says_so_when_it_stops(problems, start_worker, tmp_path):
    beat_file = tmp_path / "worker-beat"
    worker = start_worker(env=EMBEDDED | {"WORKER_BEAT_FILE": str(beat_file)})
    log = tmp_path / "worker.log"
    row = wait_for(lambda: WorkerHeartbeat.objects.filter(pid=worker.process.pid).first(), 60, "a heartbeat", log)
    assert {"run", "submit", "rejudge"} <= set(row.lanes.split(","))
    assert grading_state().running
    later = wait_for(
        lambda: WorkerHeartbeat.objects.filter(pid=worker.process.pid, seen_at__gt=row.seen_at).first(),
        30,
        "a second heartbeat",
        log,
    )
    assert later.seen_at > row.seen_at
    assert beat_file.exists()  # what compose's health check reads
    worker.process.terminate()  # a clean stop (SIGTERM): the row goes at once
    worker.process.wait(60)
    assert not WorkerHeartbeat.objects.filter(pid=worker.process.pid).exists()
