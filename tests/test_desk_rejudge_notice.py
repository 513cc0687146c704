"""A rejudge after release tells the students whose credit moved, on their course page, once the rejudge has
finished; a student whose credit stayed, or whose grades were not released yet, is told nothing."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse

from engine.verdicts import Verdict
from judge.authoring import services as authoring
from judge.authoring.models import RejudgeScope
from judge.courses import release
from judge.courses.models import CreditBefore, Notice
from tests.boards import regraded
from tests.courses import DUE, world  # noqa: F401 (fixture)
from tests.desk_release import graded


def test_the_student_whose_credit_moved_is_told_once_after_the_rejudge_finishes(client, world):
    w = world
    problem = w.problems[0]
    ada = graded(w.student, problem, Verdict.ACCEPTED, at=DUE - timedelta(hours=1))
    grace = graded(w.second, problem, Verdict.ACCEPTED, at=DUE - timedelta(hours=1))
    batch = authoring.request_rejudge(w.instructor, RejudgeScope.PROBLEM, problem)
    assert CreditBefore.objects.count() == 2
    authoring.run_rejudge_batch(batch.pk)
    assert regraded(ada, Verdict.WRONG_ANSWER)
    assert release.notify_finished_rejudges() == 0  # grace's Submit is still in the queue: not finished
    assert regraded(grace, Verdict.ACCEPTED)
    assert release.notify_finished_rejudges() == 1
    assert release.notify_finished_rejudges() == 0 and not CreditBefore.objects.exists()

    client.force_login(w.student)
    home = client.get(reverse("course-home", args=[w.course.pk])).content.decode()
    assert "First step in Week 1 was graded again: your credit went from 1 to 0." in home
    assert "graded again" not in client.get(reverse("course-home", args=[w.course.pk])).content.decode()
    assert not Notice.objects.filter(user=w.second).exists()


def test_nothing_is_remembered_for_grades_not_released_yet(world):
    w = world
    w.assignment.release = "manual"
    w.assignment.save()
    graded(w.student, w.problems[0], Verdict.ACCEPTED, at=DUE - timedelta(hours=1))
    authoring.request_rejudge(w.instructor, RejudgeScope.PROBLEM, w.problems[0])
    assert not CreditBefore.objects.exists()
