"""Spaced review: a solved problem comes back for a blank-page re-solve 3, 10 and 30 days later, as the clock
moves; a review Submit is graded like any other but counts for the review alone, never for the standings or a
course's credit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.forms.models import model_to_dict

from engine.verdicts import Verdict
from judge.courses.grades import gradebook
from judge.lib.validation import SubmissionRejected
from judge.standings.models import PeriodTotals, ProblemTotals, UserProblemState, UserTotals
from judge.submissions.models import Kind, Submission
from judge.submissions.reviews import reviews_of, schedule
from judge.submissions.services import intake
from tests.boards import quick_problem, recorded
from tests.courses import DUE, world  # noqa: F401  (the fixture)

SOLVED = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def test_the_intervals_count_from_the_solve_then_from_each_review_passed_in_time():
    assert schedule(SOLVED, []) == (0, SOLVED + 3 * DAY)
    assert schedule(SOLVED, [SOLVED + 4 * DAY]) == (1, SOLVED + 14 * DAY)
    assert schedule(SOLVED, [SOLVED + 4 * DAY, SOLVED + 14 * DAY]) == (2, SOLVED + 44 * DAY)
    assert schedule(SOLVED, [SOLVED + 4 * DAY, SOLVED + 14 * DAY, SOLVED + 44 * DAY]) == (3, None)
    assert schedule(SOLVED, [SOLVED + 2 * DAY]) == (0, SOLVED + 3 * DAY)  # early: it moves nothing


def due_slugs(user) -> list[str]:
    now = datetime.now(UTC)
    return [item.problem.slug for item in reviews_of(user) if item.is_due(now)]


def test_a_solved_problem_comes_due_as_the_clock_moves(db, student):
    problem = quick_problem("alpha")
    with time_machine.travel(SOLVED, tick=False) as clock:
        recorded(student, problem, Verdict.WRONG_ANSWER)
        recorded(student, problem)
        clock.shift(3 * DAY - timedelta(minutes=1))
        assert due_slugs(student) == []
        clock.shift(timedelta(minutes=1))
        assert due_slugs(student) == ["alpha"]

        clock.shift(DAY)  # a day late: the next interval counts from the review
        recorded(student, problem, Verdict.WRONG_ANSWER, kind=Kind.REVIEW)
        assert due_slugs(student) == ["alpha"]  # a failed review leaves it due
        recorded(student, problem, kind=Kind.REVIEW)
        assert due_slugs(student) == []
        clock.shift(10 * DAY - timedelta(minutes=1))
        assert due_slugs(student) == []
        clock.shift(timedelta(minutes=1))
        assert due_slugs(student) == ["alpha"]

        recorded(student, problem, kind=Kind.REVIEW)
        clock.shift(30 * DAY)
        assert due_slugs(student) == ["alpha"]
        recorded(student, problem, kind=Kind.REVIEW)
        clock.shift(365 * DAY)
        assert due_slugs(student) == []  # three reviews: done
        assert [(i.done, i.due_at) for i in reviews_of(student)] == [(3, None)]


def test_an_unsolved_problem_and_anothers_solve_are_never_due(db, student, second_student):
    attempted, theirs = quick_problem("alpha"), quick_problem("beta")
    with time_machine.travel(SOLVED, tick=False) as clock:
        recorded(student, attempted, Verdict.WRONG_ANSWER)
        recorded(second_student, theirs)
        recorded(student, theirs, kind=Kind.RUN)
        clock.shift(40 * DAY)
        assert due_slugs(student) == [] and due_slugs(second_student) == ["beta"]


def test_a_review_submit_before_it_is_due_is_refused_and_stores_nothing(db, student):
    problem = quick_problem("alpha")
    with time_machine.travel(SOLVED, tick=False) as clock:
        with pytest.raises(SubmissionRejected, match="solve this problem with a Submit first"):
            intake.submit_solution(student, problem, "import numpy as np\n", Kind.REVIEW)
        recorded(student, problem)
        clock.shift(DAY)
        with pytest.raises(SubmissionRejected, match="next review is due on 2026-05-07"):
            intake.submit_solution(student, problem, "import numpy as np\n", Kind.REVIEW)
        assert not Submission.objects.filter(kind=Kind.REVIEW).exists()
        clock.shift(2 * DAY)
        review = intake.submit_solution(student, problem, "import numpy as np\n", Kind.REVIEW)
        assert review.kind == Kind.REVIEW


def standings_rows() -> dict:
    return {
        model.__name__: sorted((model_to_dict(row) for row in model.objects.all()), key=repr)
        for model in (UserProblemState, UserTotals, ProblemTotals, PeriodTotals)
    }


@time_machine.travel(DUE - 2 * DAY, tick=False)
def test_a_review_submit_changes_neither_the_standings_nor_a_courses_credit(world):
    student, problem = world.student, world.problems[0]
    recorded(student, problem, at=DUE - 20 * DAY)  # practice, before the assignment opened
    assert due_slugs(student) == [problem.slug]
    before = standings_rows()

    # Inside the assignment's window, where an accepted Submit would earn the credit.
    recorded(student, problem, at=DUE - 3 * DAY, kind=Kind.REVIEW)
    recorded(student, world.problems[1], Verdict.WRONG_ANSWER, at=DUE - 3 * DAY, kind=Kind.REVIEW)
    assert standings_rows() == before
    credit = gradebook(world.course).assignments[0].credit(student.pk, problem.pk)
    assert credit.value == 0 and not credit.counts
    assert due_slugs(student) == []  # it counted for the review

    recorded(student, problem, at=DUE - 2 * DAY)  # the same code as a Submit: credit, as always
    credit = gradebook(world.course).assignments[0].credit(student.pk, problem.pk)
    assert credit.value == 1 and credit.counts
    assert standings_rows() != before
