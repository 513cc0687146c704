"""The instructor's live view: the progress matrix (states, attempts, first solve, late marks, sorting, sections),
who is stuck, what the class gets wrong, and the matrix answering its long poll as soon as a verdict lands."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from engine.verdicts import Verdict
from judge.courses import live
from judge.submissions import push
from judge.submissions.models import Status, Submission
from tests.boards import recorded
from tests.courses import DUE, make_world, unlinked, world  # noqa: F401 (fixture)

HOUR = timedelta(hours=1)


def matrix(client, w, **params) -> str:
    url = reverse("assignment-progress", args=[w.course.pk, w.assignment.pk])
    return client.get(url, params).content.decode()


def row_of(page: str, name: str) -> str:
    return unlinked(page[page.index(f'data-student="{name}"') :].split("</tr>")[0])


def test_the_matrix_shows_solved_attempted_and_not_started_with_late_marks(client, world):
    first, second = world.problems
    recorded(world.student, first, verdict=Verdict.WRONG_ANSWER, at=DUE - 3 * HOUR)
    recorded(world.student, first, at=DUE - 2 * HOUR)
    recorded(world.second, first, at=DUE + HOUR)
    recorded(world.second, second, verdict=Verdict.WRONG_ANSWER, at=DUE + HOUR)
    client.force_login(world.ta)
    page = matrix(client, world)
    ada, grace = row_of(page, "ada"), row_of(page, "grace")
    assert '<td class="solved">✓ 15:00 · 2</td>' in ada and '<td class="not-started">·</td>' in ada
    assert '<td class="solved late">✓ 18:00 late · 1</td>' in grace and '<td class="attempted">✗ 1</td>' in grace


def test_the_matrix_sorts_and_filters_by_section(client, world):
    first, second = world.problems
    recorded(world.second, first, at=DUE - HOUR)
    recorded(world.second, second, at=DUE - HOUR)
    client.force_login(world.instructor)
    by_name, by_solved = matrix(client, world), matrix(client, world, sort="solved")
    assert by_name.index('data-student="ada"') < by_name.index('data-student="grace"')
    assert by_solved.index('data-student="grace"') < by_solved.index('data-student="ada"')
    lab_a = matrix(client, world, section=world.section.pk)
    assert 'data-student="ada"' in lab_a and 'data-student="grace"' not in lab_a


def test_students_with_many_wrong_submits_and_no_solve_are_stuck(client, world):
    first, second = world.problems
    now = timezone.now()
    for minute in (1, 2, 3):
        recorded(world.second, first, verdict=Verdict.WRONG_ANSWER, at=now - timedelta(minutes=minute))
        recorded(world.student, second, verdict=Verdict.WRONG_ANSWER, at=now - timedelta(minutes=minute))
    recorded(world.student, second, at=now)  # ada solved it in the end
    client.force_login(world.instructor)
    stuck = matrix(client, world).split('id="stuck"')[1]
    assert "grace on first_step: 3 wrong" in stuck and "ada" not in stuck
    assert "grace" not in matrix(client, world, stuck_minutes=0).split('id="stuck"')[1]


def wrong_with(user, problem, misconception: str | None, property_name: str | None, signature: str):
    submission = recorded(user, problem, verdict=Verdict.WRONG_ANSWER, at=DUE - HOUR)
    results = [
        {
            "name": "h1",
            "hidden": True,
            "status": "wrong_value",
            "signature": signature,
            **({"misconception": {"name": misconception}} if misconception else {}),
        }
    ]
    Submission.objects.filter(pk=submission.pk).update(
        results=results, properties=[{"name": property_name}] if property_name else []
    )


def test_what_the_class_gets_wrong_counts_misconceptions_probes_and_clusters(client, world, django_user_model):
    first, _ = world.problems
    wrong_with(world.student, first, "softmax over the wrong axis", "rows sum to one", "wrong_value:a")
    wrong_with(world.second, first, "softmax over the wrong axis", None, "wrong_value:a")
    outsider = django_user_model.objects.create_user("outsider")
    wrong_with(outsider, first, "forgot the scale", None, "wrong_value:b")  # not in the course
    client.force_login(world.ta)
    page = client.get(reverse("assignment-insights", args=[world.course.pk, world.assignment.pk])).content.decode()
    section = page.split('id="insight-first_step"')[1].split("</section>")[0]
    assert "(2 students with a wrong Submit)" in section
    assert "softmax over the wrong axis: 2" in section and "rows sum to one: 1" in section
    assert "forgot the scale" not in section
    client.force_login(world.student)
    assert client.get(reverse("assignment-insights", args=[world.course.pk, world.assignment.pk])).status_code == 403


def test_a_stale_fingerprint_is_answered_at_once(client, world):
    client.force_login(world.instructor)
    stale = live.fingerprint(world.assignment)
    recorded(world.student, world.problems[0], at=DUE - HOUR)
    started = time.monotonic()
    page = matrix(client, world, fragment=1, wait=stale)
    assert time.monotonic() - started < 1.5
    assert "✓" in row_of(page, "ada") and live.fingerprint(world.assignment) in page


@pytest.mark.django_db(transaction=True)
def test_the_matrix_long_poll_answers_when_a_verdict_lands(client, django_user_model, settings):
    w = make_world(django_user_model)
    settings.PUSH_WAIT_S = 15
    client.force_login(w.instructor)
    shown = live.fingerprint(w.assignment)

    def grade_later():
        time.sleep(1.0)
        submission = recorded(w.second, w.problems[1], at=DUE - HOUR)
        push.publish_status(submission.pk, Status.DONE)  # as the worker does once the verdict is recorded
        connection.close()

    worker = threading.Thread(target=grade_later)
    worker.start()
    started = time.monotonic()
    page = matrix(client, w, fragment=1, wait=shown)
    took = time.monotonic() - started
    worker.join()
    assert 0.8 < took < 8, took
    assert "✓" in row_of(page, "grace")


def test_the_long_poll_returns_the_same_matrix_when_nothing_changes(client, world, settings):
    settings.PUSH_WAIT_S = 0.6
    client.force_login(world.instructor)
    shown = live.fingerprint(world.assignment)
    started = time.monotonic()
    page = matrix(client, world, fragment=1, wait=shown)
    assert time.monotonic() - started >= 0.5
    assert f"wait={shown}" in page


def test_a_passed_tests_empty_misconception_is_not_listed_as_a_nameless_mistake(client, world):
    first, _ = world.problems
    submission = recorded(world.student, first, verdict=Verdict.WRONG_ANSWER, at=DUE - HOUR)
    passed = {"name": "t1", "hidden": False, "status": "passed", "misconception": {}}  # as the engine stores it
    failed = {"name": "h1", "hidden": True, "status": "wrong_value", "misconception": {"name": "kept the mask"}}
    Submission.objects.filter(pk=submission.pk).update(results=[passed, failed], properties=[{"name": ""}])
    client.force_login(world.instructor)
    page = client.get(reverse("assignment-insights", args=[world.course.pk, world.assignment.pk])).content.decode()
    section = page.split('id="insight-first_step"')[1].split("</section>")[0]
    assert "<li>kept the mask: 1</li>" in section
    assert "<li>: 1</li>" not in section and "Properties broken" not in section
