from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from celery import Celery
from celery.signals import before_task_publish, setup_logging, task_postrun, task_prerun, worker_ready, worker_shutdown

from judge.lib import logs
from judge.lib.broker import SANDBOX_LANES
from judge.lib.sandbox_backend import resolve_backend

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

log = logging.getLogger(__name__)

app = Celery("judge")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["judge.submissions", "judge.grading", "judge.authoring", "judge.courses", "judge.lti"])


# A task's lines carry the request id of whatever sent it (judge/lib/logs.py); a grading task binds its
# submission's own id instead, whoever sent it.
before_task_publish.connect(logs.attach_to_task, weak=False)
task_prerun.connect(logs.adopt_from_task, weak=False)
task_postrun.connect(logs.drop_after_task, weak=False)


@task_prerun.connect
def reuse_connections(task=None, **kwargs) -> None:
    """A worker process keeps its database connection from one task to the next, as a web process does from one
    request to the next: Celery's Django fixup closed it before and after every task (``CELERY_DB_REUSE_MAX``
    in settings now makes that once per thousand tasks), so each graded Submit opened a new PostgreSQL
    connection, 2 ms of the worker's CPU.  Before each task Django's own rule applies (``CONN_MAX_AGE``, and
    a connection that raised is closed if broken), and a kept connection is checked with one ``SELECT 1``
    (Django's ``CONN_HEALTH_CHECKS``), so a database restarted while the worker idled costs a new connection,
    not the task.  A task run eagerly (the tests) runs inside its caller's connection and is left alone."""
    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()
        if connection.connection is not None and not connection.is_usable():
            connection.close()


@task_postrun.connect
def close_obsolete_connections(task=None, **kwargs) -> None:
    """After a task, a connection past ``CONN_MAX_AGE`` or broken by an error goes (Django's rule per request)."""
    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close_if_unusable_or_obsolete()


@setup_logging.connect
def use_the_sites_logging(loglevel=None, **kwargs) -> None:
    """The worker logs as the site does (settings.LOGGING: the request id on every line, JSON with
    LOG_FORMAT=json) instead of Celery's own format; ``--loglevel`` still sets the level."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


@worker_ready.connect
def recover_on_start(sender, **kwargs) -> None:
    """A worker that starts after a crash picks up what the dead one left."""
    app.send_task("judge.submissions.tasks.recover_stalled_submissions")


def grades(consumer) -> bool:
    """Whether this worker runs sandboxes: it consumes a grading queue or the speed lane (the maintenance
    worker does neither, nor needs Docker)."""
    return any(lane in consumer.app.amqp.queues.consume_from for lane in SANDBOX_LANES)


@worker_ready.connect
def remove_dead_workers_sandboxes(sender, **kwargs) -> None:
    """Sandbox containers whose worker process died on this host go before new ones start."""
    if not grades(sender):
        return
    if resolve_backend() == "docker":
        from sandbox.backends.docker import remove_orphans

        remove_orphans()


def forks_pool_children(consumer) -> bool:
    """Whether this worker's main process forks pool children (prefork): a child would inherit a database
    connection that a thread of the main process kept open, and closing it there would end the parent's session."""
    from celery.concurrency.prefork import TaskPool

    return isinstance(consumer.controller.pool, TaskPool)


class Periodic(threading.Thread):
    """Does ``work`` every ``interval()`` seconds in a thread of the worker's main process, until the worker stops.
    The thread keeps its database connection from one round to the next (opening one cost more CPU than the
    round's statement), unless the process forks pool children; a round that failed closes it."""

    failure = "a periodic round failed"

    def __init__(self, consumer, name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.keeps_connection = not forks_pool_children(consumer)
        self.stopping = threading.Event()

    def interval(self) -> float:
        raise NotImplementedError

    def work(self) -> None:
        raise NotImplementedError

    def run(self) -> None:
        while True:
            self.round()
            if self.stopping.wait(self.interval()):
                return

    def round(self) -> None:
        from django.db import connection

        try:
            self.work()
        except Exception:  # the database is away for a moment: the next round tries again, on a new connection
            log.exception(self.failure)
            connection.close()
        finally:
            if not self.keeps_connection:
                connection.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join(5)


class Heartbeat(Periodic):
    """Writes this worker's heartbeat row every ``WORKER_BEAT_S`` seconds (judge/submissions/workers.py)."""

    failure = "could not write this worker's heartbeat"

    def __init__(self, consumer) -> None:
        super().__init__(consumer, "heartbeat")
        from django.utils import timezone

        self.hostname = consumer.hostname
        self.lanes = sorted(consumer.app.amqp.queues.consume_from)
        self.slots = consumer.controller.concurrency
        self.started_at = timezone.now()

    def interval(self) -> float:
        from django.conf import settings

        return settings.WORKER_BEAT_S

    def work(self) -> None:
        from django.conf import settings

        from judge.submissions.workers import beat

        beat(self.hostname, self.lanes, self.slots, os.getpid(), self.started_at)
        if settings.WORKER_BEAT_FILE:  # a health check that need not start Python (compose)
            Path(settings.WORKER_BEAT_FILE).touch()

    def stop(self) -> None:
        from judge.submissions.workers import forget

        super().stop()
        try:
            forget(self.hostname)
        except Exception:
            log.exception("could not remove this worker's heartbeat")


class Sweep(Periodic):
    """The recovery sweep every ``RECOVERY_INTERVAL_S`` (``claims.recover_stalled_submissions``), in the worker
    that runs the beat.  As a beat entry it cost that worker 3.4 ms of CPU a second when idle: the beat process
    woke to write a message, and the worker read it from the broker and ran it as a task, every 3 s; here it is
    one statement.  A thread of its own, so no task the worker runs (a slow score post) holds it up."""

    failure = "the recovery sweep failed"

    def __init__(self, consumer) -> None:
        super().__init__(consumer, "recovery-sweep")

    def interval(self) -> float:
        from django.conf import settings

        return settings.RECOVERY_INTERVAL_S

    def work(self) -> None:
        from judge.lib.broker import broker_lost_messages
        from judge.submissions.services.claims import recover_stalled_submissions

        recover_stalled_submissions(broker_lost=broker_lost_messages())


periodic: list[Periodic] = []


@worker_ready.connect
def start_periodic(sender, **kwargs) -> None:
    """Every worker beats; the one that runs the beat (``--beat``) sweeps too."""
    periodic.append(Heartbeat(sender))
    if getattr(sender.controller, "beat", None) is not None:
        periodic.append(Sweep(sender))
    for thread in periodic:
        thread.start()


@worker_shutdown.connect
def stop_periodic(sender, **kwargs) -> None:
    while periodic:
        periodic.pop().stop()
