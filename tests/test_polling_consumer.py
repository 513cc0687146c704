"""The embedded default's worker (a polled file-system broker) takes its next message as soon as a slot frees:
Celery's blocking loop acknowledges a finished task only between two waits, so each wait is one poll long."""

from __future__ import annotations

import subprocess
import sys

import pytest
from celery.worker import state

from judge.lib.polling_consumer import brief_waits, wait_limit
from tests.conftest import REPO


class Connection:
    def __init__(self) -> None:
        self.waits: list[float | None] = []

    def drain_events(self, timeout: float | None = None) -> None:
        self.waits.append(timeout)


def test_a_wait_for_a_message_lasts_at_most_one_poll_while_a_task_runs(monkeypatch):
    monkeypatch.setattr(state, "active_requests", {"a running task"})
    connection = Connection()
    drain = brief_waits(connection, wait_limit)
    drain(timeout=2.0)  # what Celery's blocking loop asks for
    drain(timeout=0.01)
    drain()
    assert connection.waits == [0.05, 0.01, 0.05]


def test_a_worker_with_nothing_running_waits_longer_at_a_time(monkeypatch, settings):
    monkeypatch.setattr(state, "active_requests", set())
    monkeypatch.setattr(state, "reserved_requests", set())
    settings.BROKER_IDLE_WAIT_S = 1.0
    connection = Connection()
    brief_waits(connection, wait_limit)(timeout=2.0)
    assert connection.waits == [1.0]


@pytest.mark.heavy  # the site in processes of its own
def test_the_file_system_broker_worker_uses_the_polling_consumer_and_redis_keeps_celerys(tmp_path):
    probe = "import django; django.setup(); from judge.celery import app; print(app.conf.worker_consumer)"
    consumers = {}
    for url in ("filesystem://", "redis://127.0.0.1:6379/0"):
        done = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            env={
                "PATH": "/usr/bin:/bin",
                "CELERY_BROKER_URL": url,
                "JUDGE_TEST": "1",
                "DJANGO_SETTINGS_MODULE": "judge.settings",
                "JUDGE_VAR_DIR": str(tmp_path),
            },
        )
        assert done.returncode == 0, done.stderr[-2000:]
        consumers[url] = done.stdout.strip().splitlines()[-1]
    assert consumers["filesystem://"] == "judge.lib.polling_consumer:PollingConsumer"
    assert consumers["redis://127.0.0.1:6379/0"] == "celery.worker.consumer:Consumer"
