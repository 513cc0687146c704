"""Verdicts recorded at the same moment by several workers still add up to the rebuilt standings.

Each verdict is recorded on its own connection, as separate workers record them; a barrier lets them all
start together, so the state row, the problem's totals and the solved levels are contended.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.management import call_command
from django.db import connection

from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.grading.recording import record_verdict
from judge.standings import services
from judge.submissions.models import Kind, Status, Submission
from tests.boards import quick_problem
from tests.test_standings_rebuild import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def running(user, problem) -> Submission:
    return Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.SUBMIT,
        code="import numpy as np\n",
        status=Status.RUNNING,
        claim=uuid.uuid4(),
    )


def record_together(verdicts: list[tuple[Submission, str]]) -> list[bool]:
    barrier = threading.Barrier(len(verdicts))
    recorded: list[bool] = [False] * len(verdicts)

    def record(i: int, submission: Submission, verdict: str) -> None:
        try:
            barrier.wait()
            recorded[i] = record_verdict(submission.pk, submission.claim, GradeReport(verdict))
        finally:
            connection.close()

    threads = [threading.Thread(target=record, args=(i, s, v)) for i, (s, v) in enumerate(verdicts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return recorded


@pytest.mark.parametrize("orm_only", [False, True], ids=["one-statement", "orm"])
def test_one_students_simultaneous_verdicts_on_one_problem_count_once_each(django_user_model, monkeypatch, orm_only):
    if orm_only:  # the ORM rules, as on SQLite, on this database too
        monkeypatch.setattr(services, "in_database", lambda: False)
    problem = quick_problem("contended")
    student = django_user_model.objects.create_user("ada")
    verdicts = [(running(student, problem), Verdict.ACCEPTED if i % 3 == 0 else Verdict.WRONG_ANSWER) for i in range(6)]

    assert all(record_together(verdicts))

    incremental = snapshot()
    assert {(p, n, a, s) for p, n, a, s, *_ in incremental["problems"]} == {(problem.pk, 6, 2, 1)}
    assert {(u, n) for u, n, _ in incremental["totals"]} == {(student.pk, 1)}
    call_command("rebuild_standings", verbosity=0)
    assert snapshot() == incremental


@pytest.mark.parametrize("orm_only", [False, True], ids=["one-statement", "orm"])
def test_a_class_solving_at_once_moves_the_solved_levels_exactly(django_user_model, monkeypatch, orm_only):
    if orm_only:  # the ORM rules, as on SQLite, on this database too
        monkeypatch.setattr(services, "in_database", lambda: False)
    first, second = quick_problem("first", order=1), quick_problem("second", order=2)
    students = [django_user_model.objects.create_user(f"student{i}") for i in range(6)]
    for student in students:  # everyone has solved the first problem already
        assert record_together([(running(student, first), Verdict.ACCEPTED)]) == [True]

    assert all(record_together([(running(student, second), Verdict.ACCEPTED) for student in students]))

    incremental = snapshot()
    assert incremental["levels"] == {(2, 6)}
    assert {(u, n) for u, n, _ in incremental["totals"]} == {(s.pk, 2) for s in students}
    call_command("rebuild_standings", verbosity=0)
    assert snapshot() == incremental


def test_a_redelivered_verdict_is_refused_and_changes_nothing(django_user_model):
    problem = quick_problem("redelivered")
    student = django_user_model.objects.create_user("ada")
    submission = running(student, problem)
    assert record_verdict(submission.pk, submission.claim, GradeReport(Verdict.ACCEPTED))
    before = snapshot()

    assert not record_verdict(submission.pk, submission.claim, GradeReport(Verdict.WRONG_ANSWER))

    assert snapshot() == before
    assert Submission.objects.get(pk=submission.pk).verdict == Verdict.ACCEPTED


def test_the_standings_function_comes_with_the_migrations_and_leaves_the_status_to_submissions(db):
    """Installed by a migration before any verdict, under one name; it writes no submission's status."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT proname, prosrc FROM pg_proc WHERE proname LIKE 'judge%%'")
        functions = dict(cursor.fetchall())

    assert list(functions) == ["judge_apply_verdict"]
    assert "UPDATE submissions_submission" not in functions["judge_apply_verdict"]
