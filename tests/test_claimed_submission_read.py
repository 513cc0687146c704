"""The worker reads a claimed submission, its problem and its test set in one statement of its own: what it
reads is what the ORM reads (the JSON decoded, the relations attached), and what it leaves unread is still
there when asked for."""

from __future__ import annotations

import pytest

from judge.grading.services import GRADING_FIELDS, claimed_submission
from judge.problems.models import Problem
from judge.submissions.models import Kind, Submission
from tests.boards import quick_problem

pytestmark = pytest.mark.django_db


def test_the_claimed_read_gives_what_the_orm_gives(student):
    problem = quick_problem("first_problem")
    Problem.objects.filter(pk=problem.pk).update(spec={"function": "first_problem", "builds_on": ["x"]})
    made = Submission.objects.create(
        user=student,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.RUN,
        code="def f(x):\n    return x\n",
        custom_inputs={"x": "[[1, 2]]"},
        client_address="10.0.0.7",
    )
    read, orm = claimed_submission(made.pk), Submission.objects.select_related("problem", "test_set").get(pk=made.pk)
    for model, instance, expected in (
        (Submission, read, orm),
        (Problem, read.problem, orm.problem),
        (type(orm.test_set), read.test_set, orm.test_set),
    ):
        for name in GRADING_FIELDS[model]:
            assert getattr(instance, name) == getattr(expected, name), name
    assert read.problem.spec["builds_on"] == ["x"] and read.custom_inputs == {"x": "[[1, 2]]"}
    assert read.problem.title == orm.problem.title and read.user == student  # unread fields, read when asked


def test_a_submission_gone_is_said_so():
    with pytest.raises(Submission.DoesNotExist):
        claimed_submission(10**9)
