"""Recovery does not wait in line: with 100 submissions queued, a fault is repaired ahead of the backlog.

No time is asserted (the benchmarks measure; bench/soak.py and the benchmarks log keep the figures): a killed
worker's submission must be final while most of the backlog still waits, and a submission the broker lost must be
sent again although nothing would re-send it for its age (REQUEUE_AFTER_S is an hour here).

Real Celery workers as compose runs them: one maintenance worker (the beat and
the recovery sweep, on its own queue) and grading workers on run,submit,rejudge,
with the production timings (heartbeat 2 s, stale after 8 s, a sweep every 3 s).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
import redis
from django.conf import settings

from judge.submissions.models import Kind, Status, Submission
from judge.submissions.services import intake
from tests.conftest import REPO
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
BACKLOG = 100
PRODUCTION_TIMINGS = {
    "HEARTBEAT_INTERVAL_S": "2",
    "STALE_AFTER_S": "8",
    "RECOVERY_INTERVAL_S": "3",
    "REQUEUE_AFTER_S": "3600",  # so only the sweep's noticing that the broker lost them re-sends lost messages
}
MAINTENANCE = ("-Q", "maintenance", "--beat", "--pool=solo")
GRADING = ("-Q", "run,submit,rejudge", "--concurrency=1")


def slow_once(seconds: float) -> str:
    """Correct, but the first test it meets takes ``seconds``."""
    return f"""
import time
import numpy as np

_slept = []

def prepend_class_token(patches, cls_token):
    if not _slept:
        time.sleep({seconds})
        _slept.append(1)
    tiled = np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2]))
    return np.concatenate([tiled, patches], axis=1)
"""


def steady(seconds: float) -> str:
    """Correct, and every call takes ``seconds``: two workers cannot drain the backlog while it is being sent."""
    return f"""
import time
import numpy as np

def prepend_class_token(patches, cls_token):
    time.sleep({seconds})
    tiled = np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2]))
    return np.concatenate([tiled, patches], axis=1)
"""


def classmates(django_user_model, n: int) -> list:
    return [django_user_model.objects.create_user(f"classmate{i:03d}") for i in range(n)]


def started(tmp_path, count: int) -> bool:
    return (tmp_path / "worker.log").read_bytes().count(b" ready.") >= count


def worker_grading(workers: list, submission_id: int):
    """The worker whose pool is grading this submission, asked through Celery's remote control."""
    from judge.celery import app

    replies = app.control.inspect(timeout=1.0, limit=len(workers) + 1).active() or {}  # + the maintenance worker
    for node, tasks in replies.items():
        if any(task["args"] and task["args"][0] == submission_id for task in tasks):
            return next(w for w in workers if node.startswith(w.node))
    return None


def test_a_submission_whose_worker_is_killed_is_final_before_the_100_queued_ahead_of_it(
    problems, student, django_user_model, start_worker, tmp_path
):
    start_worker(*MAINTENANCE, env=PRODUCTION_TIMINGS)
    graders = [start_worker(*GRADING, env=PRODUCTION_TIMINGS) for _ in range(2)]
    wait_for(lambda: started(tmp_path, 3), 60, "the workers", tmp_path / "worker.log")
    backlog = [
        intake.submit_solution(user, problems[SLUG], slow_once(1.0)) for user in classmates(django_user_model, BACKLOG)
    ]
    # A Run jumps the backlog, so the next free worker takes it; 1.8 s on its first test keeps it running.
    doomed = intake.submit_solution(student, problems[SLUG], slow_once(1.8), kind=Kind.RUN)
    wait_for(
        lambda: Submission.objects.filter(pk=doomed.pk, status=Status.RUNNING).exists(),
        30,
        "a worker to take it",
        tmp_path / "worker.log",
    )
    holder = worker_grading(graders, doomed.pk)

    holder.kill()
    fault = time.monotonic()
    done = wait_for(lambda: final(doomed.pk), 60, "recovery", tmp_path / "worker.log")
    recovered_after = time.monotonic() - fault
    still_queued = Submission.objects.filter(pk__in=[s.pk for s in backlog], status=Status.QUEUED).count()
    assert (done.verdict, done.attempts) == ("accepted", 2)
    assert still_queued > BACKLOG // 2  # the backlog was there all along
    print(f"final {recovered_after:.1f} s after its worker died, {still_queued} still queued")


@pytest.fixture
def own_redis(tmp_path):
    """A Redis of this test's own, without persistence, that the test may restart (the shared one is not)."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    port = 6390 + os.getpid() % 50

    def start() -> subprocess.Popen:
        process = subprocess.Popen(
            [
                server,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(tmp_path),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for(lambda: _answers(port), 10, f"redis-server on {port}")
        return process

    current = {"process": start()}

    def restart() -> None:
        current["process"].send_signal(signal.SIGKILL)
        current["process"].wait()
        current["process"] = start()

    yield f"redis://127.0.0.1:{port}/0", restart
    current["process"].send_signal(signal.SIGKILL)
    current["process"].wait()


def _answers(port: int) -> bool:
    try:
        return redis.Redis(port=port, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        return False


def submit_through(broker_url: str, users: list, code: str) -> list[int]:
    """Submit as the web server would, sending the messages to ``broker_url`` (not this process's broker)."""
    db = settings.DATABASES["default"]
    env = os.environ | {
        "CELERY_BROKER_URL": broker_url,
        "PYTHONPATH": str(REPO),
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    script = f"""
import django; django.setup()
from django.contrib.auth import get_user_model
from judge.problems.models import Problem
from judge.submissions.services.intake import submit_solution
problem = Problem.objects.get(slug={SLUG!r})
for user in get_user_model().objects.filter(pk__in={[u.pk for u in users]!r}).order_by("pk"):
    print(submit_solution(user, problem, {code!r}).pk)
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return [int(line) for line in done.stdout.split()]


def test_after_redis_restarts_empty_the_lost_submissions_are_sent_again_and_graded_once(
    problems, django_user_model, own_redis, start_worker, tmp_path
):
    broker_url, restart_redis = own_redis
    env = PRODUCTION_TIMINGS | {"CELERY_BROKER_URL": broker_url}
    start_worker(*MAINTENANCE, env=env)
    start_worker("-Q", "run,submit,rejudge", "--concurrency=2", env=env)
    wait_for(lambda: started(tmp_path, 2), 60, "the workers", tmp_path / "worker.log")
    ids = submit_through(broker_url, classmates(django_user_model, BACKLOG), steady(0.02))
    restart_redis()
    fault = time.monotonic()
    lost = list(Submission.objects.filter(pk__in=ids, status=Status.QUEUED).order_by("pk").values_list("pk", flat=True))
    assert len(lost) > BACKLOG // 2  # most of the backlog was only in Redis

    first = wait_for(lambda: final(lost[0]), 60, "the first lost submission", tmp_path / "worker.log")
    first_after = time.monotonic() - fault
    wait_for(
        lambda: not Submission.objects.filter(pk__in=ids).exclude(status=Status.DONE).exists(),
        90,
        "the whole lost backlog",
        tmp_path / "worker.log",
    )
    graded = Submission.objects.filter(pk__in=ids)
    assert first.verdict == "accepted"
    assert set(graded.values_list("verdict", flat=True)) == {"accepted"}
    assert not graded.filter(attempts__gt=1).exists()  # re-sent, not graded twice
    print(f"{len(lost)} lost; the first final {first_after:.1f} s after Redis restarted")
