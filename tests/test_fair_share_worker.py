"""Through a real Celery worker: a flood from many accounts at one address does not hold up a student elsewhere,
and the embedded default (a file-system broker, no Redis) still grades."""

from __future__ import annotations

import subprocess
import sys

import pytest

from judge.problems.models import Problem
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.conftest import REPO, read_solution
from tests.test_worker_end_to_end import final, start_worker, wait_for, worker_env  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
LOOP = "def prepend_class_token(patches, cls_token):\n    while True:\n        pass\n"
FLOOD_ADDRESS, VICTIM_ADDRESS = "198.51.100.20", "192.0.2.99"


def test_a_victims_submission_is_graded_before_a_flood_of_loops_from_six_accounts_at_one_address_finishes(
    problems, django_user_model, second_student, start_worker, tmp_path
):
    problem = problems[SLUG]
    Problem.objects.filter(pk=problem.pk).update(spec=problem.spec | {"time_limit_s": 0.5})  # a shorter flood
    accounts = [django_user_model.objects.create_user(f"sock{i}") for i in range(6)]
    # All queued before the worker starts, so the order is the broker's alone, not a race with the sending.
    flood = [
        intake.submit_solution(user, problem, LOOP, client_address=FLOOD_ADDRESS) for user in accounts for _ in range(6)
    ]
    victim = intake.submit_solution(second_student, problem, read_solution(SLUG), client_address=VICTIM_ADDRESS)
    start_worker("-Q", "run,submit,rejudge", "--concurrency=2")
    log = tmp_path / "worker.log"
    victim = wait_for(lambda: final(victim.pk), 120, "the victim's verdict", log)
    assert victim.verdict == "accepted"
    # Arrival order would have put every account's first loop ahead of the victim (six), and the parked
    # ones behind; fair share lets through only what the first account queued before it was a flood.
    before = Submission.objects.filter(pk__in=[s.pk for s in flood], started_at__lt=victim.started_at).count()
    assert before <= 2
    wait_for(lambda: all(final(s.pk) for s in flood), 180, "the flood's verdicts", log)
    last = max(Submission.objects.filter(pk__in=[s.pk for s in flood]).values_list("finished_at", flat=True))
    assert victim.finished_at < last
    assert set(Submission.objects.filter(pk__in=[s.pk for s in flood]).values_list("verdict", flat=True)) == {
        "time_limit_exceeded"
    }


def test_a_flood_sent_all_at_once_in_the_first_band_steps_back_and_the_victim_goes_first(
    problems, django_user_model, second_student, start_worker, tmp_path, monkeypatch
):
    """Ten accounts posting at once each got their loops into the first band (every send saw the others not yet
    counted): here the sends are given that band outright, and the worker's claim puts them back in order."""
    problem = problems[SLUG]
    Problem.objects.filter(pk=problem.pk).update(spec=problem.spec | {"time_limit_s": 0.5})
    accounts = [django_user_model.objects.create_user(f"wave{i}") for i in range(10)]
    monkeypatch.setattr(intake, "fair_priority", lambda pk: 1)
    flood = [
        intake.submit_solution(user, problem, LOOP, client_address=FLOOD_ADDRESS) for user in accounts for _ in range(3)
    ]
    monkeypatch.undo()
    victim = intake.submit_solution(second_student, problem, read_solution(SLUG), client_address=VICTIM_ADDRESS)
    start_worker("-Q", "run,submit,rejudge", "--concurrency=2")
    log = tmp_path / "worker.log"
    victim = wait_for(lambda: final(victim.pk), 120, "the victim's verdict", log)
    assert victim.verdict == "accepted"
    before = Submission.objects.filter(pk__in=[s.pk for s in flood], started_at__lt=victim.started_at).count()
    assert before <= 4  # arrival order would have put all thirty ahead; each account's first may go first
    wait_for(lambda: all(final(s.pk) for s in flood), 180, "the flood's verdicts", log)


SUBMIT = """
import json
from django.contrib.auth import get_user_model
from judge.problems.models import Problem
from judge.submissions.services.intake import submit_solution
user = get_user_model().objects.get(pk={user})
print(json.dumps(submit_solution(user, Problem.objects.get(slug={slug!r}), {code!r}, client_address="192.0.2.1").pk))
"""


def test_without_redis_a_file_system_broker_worker_still_grades(problems, student, worker_env, start_worker, tmp_path):
    embedded = {"CELERY_BROKER_URL": "filesystem://", "REDIS_URL": ""}
    start_worker(env=embedded)
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            SUBMIT.format(user=student.pk, slug=SLUG, code=read_solution(SLUG)),
        ],
        cwd=REPO,
        env=worker_env | embedded,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    pk = int(done.stdout.strip().splitlines()[-1])
    graded = wait_for(lambda: final(pk), 90, "a verdict through the file-system broker", tmp_path / "worker.log")
    assert graded.verdict == "accepted"
    assert graded.client_address == "192.0.2.1"
