from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_ready

from judge.lib.broker import SANDBOX_LANES
from judge.lib.sandbox_backend import resolve_backend

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

app = Celery("judge")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["judge.submissions", "judge.authoring", "judge.lti"])


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
