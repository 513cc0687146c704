"""A grading worker that has fallen silent is visible: staff see a banner on every page, a student whose
submission waits is told that grading is not running instead of a queue position, and compose's health check
on a worker fails."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from judge.submissions.models import Submission, WorkerHeartbeat
from judge.submissions.services.intake import submit_solution
from judge.submissions.workers import grading_state

pytestmark = pytest.mark.django_db


def heartbeat(seconds_ago: float, lanes: str = "run,submit,rejudge", host: str = "grader-1") -> WorkerHeartbeat:
    now = timezone.now()
    return WorkerHeartbeat.objects.create(
        hostname=f"celery@{host}-{lanes}",
        host=host,
        pid=7,
        lanes=lanes,
        slots=2,
        started_at=now - timedelta(hours=1),
        seen_at=now - timedelta(seconds=seconds_ago),
    )


def test_grading_runs_while_a_grading_worker_beat_lately():
    heartbeat(4)
    assert grading_state().running


def test_grading_has_stopped_when_no_worker_ever_beat_or_the_last_beat_is_old():
    assert grading_state() == grading_state().__class__(False, None)
    old = heartbeat(45)
    state = grading_state()
    assert not state.running and state.last_seen == old.seen_at


def test_a_maintenance_worker_alone_does_not_count_as_grading():
    heartbeat(1, lanes="maintenance")
    assert not grading_state().running


def test_staff_see_a_banner_on_every_page_while_grading_has_stopped(client, author):
    heartbeat(120)
    client.force_login(author)
    for url in ("/", "/leaderboard/"):
        page = client.get(url).content.decode()
        assert 'id="grading-stopped"' in page and "Grading is not running" in page


def test_staff_see_no_banner_while_a_grading_worker_beats(client, author):
    heartbeat(2)
    client.force_login(author)
    assert 'id="grading-stopped"' not in client.get("/").content.decode()


def test_staff_hear_nothing_while_a_first_worker_starts_but_are_told_once_a_submission_waited(
    client, author, problems, student, no_enqueue
):
    client.force_login(author)
    assert 'id="grading-stopped"' not in client.get("/").content.decode()  # no worker yet, nothing waiting
    submission = submit_solution(student, problems["prepend_class_token"], "x = 1")
    from django.core.cache import cache

    cache.clear()
    assert 'id="grading-stopped"' not in client.get("/").content.decode()  # it has waited a moment only
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - timedelta(seconds=31))
    cache.clear()
    page = client.get("/").content.decode()
    assert 'id="grading-stopped"' in page and "no grading worker has started" in page


def test_students_see_no_banner_on_pages_that_are_not_theirs_to_act_on(client, student):
    client.force_login(student)
    assert 'id="grading-stopped"' not in client.get("/").content.decode()


def test_a_waiting_student_is_told_grading_is_not_running_instead_of_a_queue_position(
    client, problems, student, no_enqueue
):
    submission = submit_solution(student, problems["prepend_class_token"], "def prepend_class_token(p, c):\n  pass\n")
    client.force_login(student)
    just_sent = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "position 1 in the queue" in just_sent  # a worker just starting gets as long as a silence takes
    Submission.objects.filter(pk=submission.pk).update(created_at=timezone.now() - timedelta(seconds=31))
    stopped = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "grading is not running at the moment" in stopped and "position" not in stopped
    heartbeat(1)
    from django.core.cache import cache

    cache.clear()  # the state is kept for a few seconds
    running = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "grading is not running" not in running and "position 1 in the queue" in running


def test_the_worker_health_check_passes_only_while_a_worker_on_this_host_beats(capsys):
    with pytest.raises(CommandError, match="no worker on this host"):
        call_command("worker_health")
    heartbeat(60, host=socket.gethostname())
    with pytest.raises(CommandError):
        call_command("worker_health")
    heartbeat(3, lanes="maintenance", host=socket.gethostname())
    call_command("worker_health")
    assert "alive" in capsys.readouterr().out
