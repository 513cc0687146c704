"""The staff status page: workers and their slots, queues, the oldest waiting submission, the last verdict,
problems being gated, the sandbox image and NumPy; for staff only."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from django.utils import timezone

from judge.grading import services as grading
from judge.problems.models import GateRun
from judge.submissions import workers
from judge.submissions.models import SandboxPool, Submission, WorkerHeartbeat
from judge.submissions.services.intake import submit_solution
from tests.conftest import read_solution

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get("/status/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/status/")


def test_students_are_refused(client, student):
    client.force_login(student)
    assert client.get("/status/").status_code == 403


def test_staff_find_the_page_from_the_navigation(client, author):
    client.force_login(author)
    assert 'href="/status/"' in client.get("/").content.decode()
    assert 'href="/status/"' in client.get("/authoring/").content.decode()


def test_a_student_sees_no_link_to_it(client, student):
    client.force_login(student)
    assert 'href="/status/"' not in client.get("/").content.decode()


def test_staff_see_workers_queues_the_oldest_waiting_the_last_verdict_gates_and_the_sandbox(
    client, author, student, problems, no_enqueue, monkeypatch, settings
):
    now = timezone.now()
    WorkerHeartbeat.objects.create(
        hostname="celery@grader-a",
        host=socket.gethostname(),
        pid=11,
        lanes="run,submit,rejudge",
        slots=4,
        started_at=now,
        seen_at=now,
    )
    WorkerHeartbeat.objects.create(
        hostname="celery@grader-b",
        host="other-host",
        pid=12,
        lanes="run,submit,rejudge",
        slots=2,
        started_at=now,
        seen_at=now - timedelta(minutes=3),
    )
    monkeypatch.setattr(workers, "_reported", {})
    graded = submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    grading.grade_submission(graded.pk)
    waiting = submit_solution(student, problems["prepend_class_token"], "x = 1")
    Submission.objects.filter(pk=waiting.pk).update(enqueued_at=now - timedelta(seconds=75))
    GateRun.objects.create(problem=problems["prepend_class_token"], package_hash="0" * 64, trigger="manual")

    client.force_login(author)
    page = client.get("/status/").content.decode()

    assert '<td id="grading-slots">4</td>' in page  # grader-b is silent: its slots are not counted
    assert "celery@grader-a" in page and "celery@grader-b" in page and "silent for 1" in page
    assert "1 submit" in page  # waiting
    assert f"#{waiting.pk}</a> (submit of prepend_class_token), waiting 7" in page
    finished = Submission.objects.get(pk=graded.pk).finished_at
    assert timezone.localtime(finished).strftime("%Y-%m-%d %H:%M:%S") in page
    assert "prepend_class_token</a>: queued since" in page
    pool = SandboxPool.objects.get(host=socket.gethostname())
    assert f"<code>{settings.SANDBOX_IMAGE}</code>" in page
    assert f'<td id="sandbox-backend">{pool.backend}</td>' in page
    assert f'<td id="sandbox-numpy">{pool.numpy}</td>' in page and pool.numpy.count(".") == 2
