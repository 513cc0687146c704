"""Through a real Celery worker process, Redis and PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
import redis
from django.conf import settings
from django.db import connection

from judge.submissions.models import Status, Submission
from tests.conftest import REPO, read_solution

# Correct, but its first test takes 1.8 s: inside the 2 s limit and the submission's budget.
SLOW_CORRECT_SOLUTION = """
import time
import numpy as np

_slept = []

def prepend_class_token(patches, cls_token):
    if not _slept:
        time.sleep(1.8)
        _slept.append(1)
    tiled = np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2]))
    return np.concatenate([tiled, patches], axis=1)
"""

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_env(tmp_path):
    db = connection.settings_dict
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    return os.environ | {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "SANDBOX_BACKEND": os.environ.get("E2E_SANDBOX_BACKEND", "process"),
        "HEARTBEAT_INTERVAL_S": "0.5",
        "WORKER_BEAT_S": "1",
        "STALE_AFTER_S": "3",
        "RECOVERY_INTERVAL_S": "1",
        "REQUEUE_AFTER_S": "2",
        "JUDGE_VAR_DIR": str(tmp_path),
        "PYTHONPATH": str(REPO),
    }


class Worker:
    """A real Celery worker process; by default one that does everything (all queues, the beat)."""

    def __init__(self, env: dict, log_path, args: tuple[str, ...] = ("--beat", "--concurrency=1")) -> None:
        self.log = open(log_path, "ab")  # noqa: SIM115  (the worker writes it until stop())
        name = uuid.uuid4().hex[:8]
        self.node = f"e2e-{name}@"  # how Celery's remote control names it, before the host
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "judge",
                "worker",
                *args,
                "--loglevel=INFO",
                "--without-mingle",
                "--without-gossip",
                f"--hostname=e2e-{name}@%h",
                f"--schedule={env['JUDGE_VAR_DIR']}/beat-schedule-{name}",
            ],
            cwd=REPO,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        """SIGKILL the whole worker: main process, pool children and beat."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.log.close()


@pytest.fixture
def start_worker(worker_env, tmp_path):
    workers = []

    def start(*args: str, env: dict | None = None) -> Worker:
        workers.append(Worker(worker_env | (env or {}), tmp_path / "worker.log", *([args] if args else [])))
        return workers[-1]

    yield start
    for worker in workers:
        worker.kill()


def wait_for(predicate, timeout: float, what: str, log=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    detail = log.read_text()[-3000:] if log and log.exists() else ""
    raise AssertionError(f"timed out waiting for {what}\n{detail}")


def final(pk: int) -> Submission | None:
    submission = Submission.objects.get(pk=pk)
    return submission if submission.status == Status.DONE else None


def test_submission_over_http_is_graded_by_a_real_worker(client, problems, student, start_worker, tmp_path):
    start_worker()
    client.force_login(student)
    response = client.post(
        "/submissions/new/prepend_class_token/", {"code": read_solution("prepend_class_token"), "kind": "submit"}
    )
    assert response.status_code == 302
    pk = int(response["Location"].rstrip("/").split("/")[-1])
    done = wait_for(lambda: final(pk), 60, "a verdict", tmp_path / "worker.log")
    assert done.verdict == "accepted"
    page = client.get(response["Location"])
    assert b"Accepted" in page.content


def test_a_worker_killed_mid_grade_leaves_no_submission_stuck(problems, student, start_worker, tmp_path):
    from judge.submissions.services.intake import submit_solution

    slow = SLOW_CORRECT_SOLUTION
    first = start_worker()
    submission = submit_solution(student, problems["prepend_class_token"], slow)
    wait_for(
        lambda: Submission.objects.filter(pk=submission.pk, status=Status.RUNNING).exists(),
        60,
        "the worker to claim the submission",
        tmp_path / "worker.log",
    )
    time.sleep(0.5)
    first.kill()
    submission.refresh_from_db()
    assert submission.status == Status.RUNNING  # the dead worker recorded nothing

    start_worker()
    done = wait_for(lambda: final(submission.pk), 90, "recovery and a verdict", tmp_path / "worker.log")
    assert done.verdict == "accepted"
    assert done.attempts == 2
    assert len(done.results) == 13


def test_a_submission_accepted_while_the_broker_is_down_is_graded_later(
    problems, student, start_worker, tmp_path, monkeypatch
):
    from kombu.exceptions import OperationalError

    from judge.grading import tasks
    from judge.submissions.services.intake import submit_solution

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.grade_submission, "delay", broker_down)
    submission = submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    assert Submission.objects.get(pk=submission.pk).status == Status.QUEUED
    start_worker()
    done = wait_for(lambda: final(submission.pk), 60, "recovery of the lost message", tmp_path / "worker.log")
    assert done.verdict == "accepted" and done.attempts == 1
