"""Through a real Celery worker on the embedded default's file-system broker: an empty and a truncated message
file in its queue folder are set aside, and the worker lives on and grades (with kombu's own transport the
first of them ended the worker, every time)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.conftest import REPO, read_solution
from tests.test_fair_share_worker import SUBMIT
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
EMBEDDED = {"CELERY_BROKER_URL": "filesystem://", "REDIS_URL": ""}


def test_a_worker_sets_aside_empty_and_truncated_messages_and_goes_on_grading(problems, student, worker_env,
                                                                             start_worker, tmp_path):
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
    wait_for(lambda: damaged.is_dir() and {p.name for p in damaged.iterdir()} == {empty.name, truncated.name},
             60, "both damaged messages set aside", log)
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                           SUBMIT.format(user=student.pk, slug=SLUG, code=read_solution(SLUG))],
                          cwd=REPO, env=worker_env | EMBEDDED, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    graded = wait_for(lambda: final(int(done.stdout.split()[-1])), 90, "a verdict after the damaged messages", log)
    assert graded.verdict == "accepted"
    assert worker.process.poll() is None, log.read_text()[-3000:]
    text = log.read_text()
    assert "Unrecoverable error" not in text
    assert f"The broker message {empty.name} could not be read" in text
