from __future__ import annotations

from celery import shared_task

from judge.problems import gates


@shared_task(acks_late=True, ignore_result=True)
def run_gate_task(gate_run_id: int) -> None:
    gates.execute_gate_run(gate_run_id)
