"""A worker process keeps its database connection from one task to the next (no new PostgreSQL connection per
graded Submit), and a connection the server dropped meanwhile is replaced before the next task instead of
failing it.  So does a worker's heartbeat from one beat to the next, where no pool process could inherit it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from celery.concurrency.prefork import TaskPool as PreforkPool
from celery.concurrency.solo import TaskPool as SoloPool
from django.db import connection, connections

from judge.celery import Heartbeat, app, close_obsolete_connections, reuse_connections
from judge.submissions.models import WorkerHeartbeat

pytestmark = [pytest.mark.django_db(transaction=True)]

TASK = SimpleNamespace(request=SimpleNamespace(is_eager=False))


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def run_a_task() -> None:
    reuse_connections(task=TASK)
    backend_pid()  # the task's queries
    close_obsolete_connections(task=TASK)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the connection is kept on PostgreSQL; SQLite's is a file")


def test_consecutive_tasks_share_one_connection(postgresql):
    assert connection.settings_dict["CONN_MAX_AGE"] > 0  # the site's default: kept for a minute
    first = backend_pid()
    for _ in range(3):
        run_a_task()
    assert backend_pid() == first
    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 100  # Celery's fixup closes it only every so many tasks


def test_a_connection_the_server_dropped_is_replaced_before_the_next_task(postgresql):
    first = backend_pid()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:  # the server ends the worker's session
            cursor.execute("SELECT pg_terminate_backend(%s)", [first])
    finally:
        other.close()
    run_a_task()  # would raise if the dropped connection were used
    assert backend_pid() != first


def test_a_task_run_eagerly_keeps_its_callers_connection(postgresql):
    first = backend_pid()
    reuse_connections(task=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert backend_pid() == first


def consumer(pool: object) -> SimpleNamespace:
    """What a worker's heartbeat reads of its Celery consumer: its name, its queues and its pool."""
    return SimpleNamespace(
        hostname="celery@grader-1",
        app=SimpleNamespace(amqp=SimpleNamespace(queues=SimpleNamespace(consume_from={"run": 1, "submit": 2}))),
        controller=SimpleNamespace(concurrency=1, pool=pool),
    )


def seen_at():
    return WorkerHeartbeat.objects.get(hostname="celery@grader-1").seen_at


def test_a_solo_workers_heartbeats_share_one_connection(postgresql):
    heartbeat = Heartbeat(consumer(SoloPool.__new__(SoloPool)))
    heartbeat.round()
    first, written = backend_pid(), seen_at()
    heartbeat.round()
    assert backend_pid() == first and seen_at() > written


def test_a_heartbeat_after_the_server_dropped_its_connection_is_written_on_a_new_one(postgresql, caplog):
    heartbeat = Heartbeat(consumer(SoloPool.__new__(SoloPool)))
    heartbeat.round()
    first, written = backend_pid(), seen_at()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:  # the database restarts between two beats
            cursor.execute("SELECT pg_terminate_backend(%s)", [first])
    finally:
        other.close()
    heartbeat.round()  # fails, and says so
    assert "could not write this worker's heartbeat" in caplog.text
    heartbeat.round()
    assert seen_at() > written and backend_pid() != first


def test_a_prefork_workers_heartbeat_leaves_no_connection_for_a_pool_process_to_inherit(postgresql):
    heartbeat = Heartbeat(consumer(PreforkPool.__new__(PreforkPool)))
    heartbeat.round()
    assert connection.connection is None
