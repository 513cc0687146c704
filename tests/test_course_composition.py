"""A problem that builds on another, assigned in a course: its lock follows the student's own accepted solutions,
wherever they were made (here on the public site, before the course had any assignment), and a Submit in the
assignment imports that code and earns credit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from judge.authoring.sync import sync_problems
from judge.courses import services as courses
from judge.courses.grades import gradebook
from judge.courses.models import LateRule
from judge.grading import services as grading
from judge.problems.models import Problem
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.composition import DOUBLE, QUADRUPLE_WITH_SOLVED, write_packages
from tests.courses import world  # noqa: F401 (fixture)
from tests.students import graded


@pytest.fixture
def composed(world, tmp_path, process_sandbox, monkeypatch):
    """The course's assignment, open now, holding only quadruple_it (which builds on double_it)."""
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)
    write_packages(tmp_path)
    sync_problems(tmp_path, sandbox=process_sandbox)
    problems = {p.slug: p for p in Problem.objects.filter(slug__in=["double_it", "quadruple_it"])}
    now = timezone.now()
    assignment = courses.save_assignment(
        world.course,
        world.instructor,
        {
            "title": "Composition",
            "opens_at": now - timedelta(days=1),
            "due_at": now + timedelta(days=1),
            "closes_at": None,
            "late_rule": LateRule.NONE,
            "weight": 1.0,
        },
        [problems["quadruple_it"]],
    )
    return assignment, problems


def test_a_prerequisite_solved_outside_the_course_opens_the_assigned_problem(client, world, composed):
    assignment, problems = composed
    graded(world.student, problems["double_it"], code=DOUBLE)  # on the public site, weeks before
    client.force_login(world.student)
    page = client.get("/problems/quadruple_it/").content.decode()
    assert "Locked:" not in page and "Built from your own code" in page and '"primary" disabled' not in page
    assert "Due in 23 h" in page or "Due in 1 d" in page
    submission = intake.submit_solution(world.student, problems["quadruple_it"], QUADRUPLE_WITH_SOLVED)
    grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    assert submission.verdict == "accepted", submission.message
    book = gradebook(world.course)
    grades = next(g for g in book.assignments if g.assignment.pk == assignment.pk)
    assert grades.total(world.student.pk) == 1.0 and grades.total(world.second.pk) == 0.0


def test_without_the_prerequisite_the_assigned_problem_stays_locked(client, world, composed):
    assignment, problems = composed
    client.force_login(world.second)
    page = client.get("/problems/quadruple_it/").content.decode()
    assert "Locked: solve what it builds on first" in page and 'id="submit-button" class="primary" disabled' in page
    response = client.post(reverse("submit", args=["quadruple_it"]), {"code": QUADRUPLE_WITH_SOLVED, "kind": "submit"})
    assert response.status_code == 400 and "solve it first" in response.content.decode()
    assert not Submission.objects.filter(problem=problems["quadruple_it"]).exists()
    assignment_page = client.get(reverse("assignment-detail", args=[world.course.pk, assignment.pk]))
    assert assignment_page.status_code == 200 and "quadruple_it" in assignment_page.content.decode()
