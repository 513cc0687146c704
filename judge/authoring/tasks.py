"""Celery tasks: each takes ids and calls a service, which names the task it sends (never imports this module)."""

from __future__ import annotations

from celery import shared_task

from judge.authoring import gate_runs, lifecycle, services

RECOVER_TASK = "judge.authoring.tasks.recover_stalled_authoring"


@shared_task(name=gate_runs.GATE_TASK, acks_late=True, ignore_result=True)
def run_gate(gate_run_id: int) -> None:
    gate_runs.execute_gate_run(gate_run_id)


@shared_task(name=services.REJUDGE_TASK, acks_late=True, ignore_result=True)
def rejudge_batch(batch_id: int) -> None:
    services.run_rejudge_batch(batch_id)


@shared_task(name=RECOVER_TASK, ignore_result=True)
def recover_stalled_authoring() -> None:
    """The authoring sweep: gate runs whose worker died are failed, stalled rejudges are sent again."""
    lifecycle.finish_dead_gate_runs()
    services.resume_stalled_rejudges()
