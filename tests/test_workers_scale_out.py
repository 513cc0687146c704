"""Several grading workers share a burst, and killing one of them mid-burst loses nothing and grades nothing twice.

Real Celery worker processes as compose runs them (grading workers on run,submit,rejudge; the maintenance worker
with the beat and the recovery sweep), Redis and PostgreSQL; a worker is killed (SIGKILL, its pool and sandboxes
with it) while it holds a claim, as a host that loses power would.
"""

from __future__ import annotations

import re

import pytest

from judge.submissions.models import Status, Submission
from judge.submissions.services import intake
from tests.conftest import REPO
from tests.test_recovery_under_backlog import slow_once, worker_grading
from tests.test_worker_end_to_end import start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
BURST = 18
GRADERS = 3
MAINTENANCE = ("-Q", "maintenance", "--beat", "--pool=solo")
GRADING = ("-Q", "run,submit,rejudge", "--concurrency=1")
LIGHT = {"SANDBOX_POOL_SIZE": "1"}  # three workers' sandboxes on a machine shared with other tests
WRONG = (REPO / "problems" / SLUG / "wrong" / "appended.py").read_text()


def graded_lines(log) -> dict[int, int]:
    """How many times each submission was logged as graded, by any worker."""
    counts: dict[int, int] = {}
    for pk in re.findall(r"submission (\d+) graded", log.read_text(errors="replace")):
        counts[int(pk)] = counts.get(int(pk), 0) + 1
    return counts


def kill_a_worker_holding_a_claim(graders: list, slow: set[int], log) -> set[int]:
    """Kill a grading worker while it grades one of the ``slow`` submissions (seconds each, so it is still at
    it when the kill comes); the submission it held when it died (running, under its claim)."""
    while True:
        running = wait_for(
            lambda: list(Submission.objects.filter(pk__in=slow, status=Status.RUNNING).values_list("pk", "claim")),
            120,
            "a worker to grade something",
            log,
        )
        for pk, claim in running:
            holder = worker_grading(graders, pk)
            if holder is None:
                continue
            holder.kill()
            graders.remove(holder)
            # Still running under the claim it had: no one else may take a claim until its heartbeats go stale.
            if Submission.objects.filter(pk=pk, status=Status.RUNNING, claim=claim).exists() or len(graders) == 1:
                return set(
                    Submission.objects.filter(pk=pk, status=Status.RUNNING, claim=claim).values_list("pk", flat=True)
                )
            break  # it finished between the question and the kill: kill another


def test_a_worker_killed_mid_burst_loses_nothing_and_grades_nothing_twice(
    problems, django_user_model, start_worker, tmp_path
):
    log = tmp_path / "worker.log"
    start_worker(*MAINTENANCE, env=LIGHT)
    graders = [start_worker(*GRADING, env=LIGHT) for _ in range(GRADERS)]
    wait_for(lambda: log.read_bytes().count(b" ready.") >= GRADERS + 1, 120, "the workers", log)
    students = [django_user_model.objects.create_user(f"burst{i:02d}") for i in range(BURST)]
    expected = {}
    for i, student in enumerate(students):  # one each: the per-student cap parks none
        wrong = i % 3 == 0
        submission = intake.submit_solution(student, problems[SLUG], WRONG if wrong else slow_once(1.5))
        expected[submission.pk] = "wrong_answer" if wrong else "accepted"
    wait_for(lambda: Submission.objects.filter(status=Status.DONE).count() >= 2, 180, "the first verdicts", log)

    slow = {pk for pk, verdict in expected.items() if verdict == "accepted"}
    held = kill_a_worker_holding_a_claim(graders, slow, log)
    assert held, "the killed worker held no claim"

    wait_for(
        lambda: Submission.objects.filter(pk__in=expected, status=Status.DONE).count() == BURST,
        300,
        "every verdict after the kill",
        log,
    )
    rows = {s.pk: s for s in Submission.objects.filter(pk__in=expected)}
    assert {pk: rows[pk].verdict for pk in expected} == expected  # nothing lost, every verdict the right one
    # What the dead worker held was claimed again and graded elsewhere (more than twice where a busy machine
    # delayed a survivor's heartbeats past STALE_AFTER_S: the claim's compare-and-set keeps that to one verdict).
    assert {pk: rows[pk].attempts >= 2 for pk in held} == dict.fromkeys(held, True), {
        pk: rows[pk].attempts for pk in held
    }
    graded = graded_lines(log)
    assert held <= set(graded)  # ... by a worker that lived
    assert all(count == 1 for count in graded.values())  # and no submission had two verdicts recorded
