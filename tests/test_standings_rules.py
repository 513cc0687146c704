"""The standings the database keeps, each of its three ways (the PostgreSQL function with every verdict, the ORM's
path, the rebuild), are what the rules in plain Python (``judge.standings.rules``) make of the same history:
random histories run through each and are compared with them, so a rule changed in one place fails here."""

from __future__ import annotations

import random
from dataclasses import astuple

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from engine.verdicts import Verdict
from judge.problems.models import Problem
from judge.standings import rules, services
from judge.standings.models import Period, UserProblemState
from judge.submissions.models import Kind, Status, Submission
from tests.boards import days_ago, quick_problem, recorded, regraded
from tests.histories import random_history, snapshot

# Every verdict the rules rank, a blank one (a custom Run's refusal), and solves often enough to move the totals.
EVERY_VERDICT = [*rules.BEST_FIRST, Verdict.ACCEPTED, Verdict.ACCEPTED, ""]


def graded() -> list[rules.Graded]:
    rows = Submission.objects.filter(kind=Kind.SUBMIT, status=Status.DONE).values_list(
        "user_id", "problem_id", "verdict", "created_at"
    )
    return [rules.Graded(*row) for row in rows]


def by_the_rules() -> dict[str, set]:
    """What ``rules.standings_of`` says the tables should hold, in ``snapshot``'s shape."""
    published = set(Problem.objects.filter(published=True).values_list("pk", flat=True))
    kept = rules.standings_of(graded(), published, timezone.get_default_timezone())
    return {
        "states": {(user, problem, *astuple(state)) for (user, problem), state in kept.states.items()},
        "totals": {(user, *figures) for user, figures in kept.totals.items()},
        "periods": {(*key, *figures) for key, figures in kept.periods.items()},
        "levels": set(kept.levels.items()),
        "problems": {(problem, *figures) for problem, figures in kept.problems.items()},
    }


@pytest.mark.parametrize("way", ["postgresql-function", "orm", "rebuild"])
@pytest.mark.parametrize("seed", [3])
def test_the_kept_standings_are_what_the_rules_make_of_a_random_history(db, django_user_model, monkeypatch, seed, way):
    if way == "postgresql-function" and connection.vendor != "postgresql":
        pytest.skip("the database function exists on PostgreSQL only")
    if way == "orm":  # the ORM rules, as on SQLite, on this database too
        monkeypatch.setattr(services, "in_database", lambda: False)
    problems = [quick_problem(f"p{i}", order=i) for i in range(5)]
    users = [django_user_model.objects.create_user(f"student{i}") for i in range(10)]
    random_history(random.Random(seed), users, problems, EVERY_VERDICT, steps=200)
    if way == "rebuild":
        call_command("rebuild_standings", verbosity=0)
    kept, expected = snapshot(), by_the_rules()
    assert expected["totals"] and expected["periods"]  # the history solved something
    assert {name: kept[name] - expected[name] for name in kept} == {name: set() for name in kept}
    assert kept == expected


@pytest.mark.parametrize("seed", range(6))
def test_each_verdict_leaves_the_state_the_rules_give(db, student, seed):
    """Step by step, one student and one problem: every order of verdicts and rejudges, in the statement that
    records each (on PostgreSQL, the database function's common case and its long way)."""
    rng = random.Random(seed)
    problem = quick_problem("alpha")
    made = []
    for _ in range(25):
        if made and rng.random() < 0.3:
            regraded(rng.choice(made), rng.choice(EVERY_VERDICT))
        else:
            made.append(recorded(student, problem, rng.choice(EVERY_VERDICT), at=days_ago(rng.uniform(0, 30))))
        state = (
            UserProblemState.objects.filter(user=student, problem=problem)
            .values_list("attempts", "accepted", "first_accepted_at", "best_verdict")
            .first()
        )
        expected = rules.standings_of(graded(), {problem.pk}, timezone.get_default_timezone()).states
        assert state == (astuple(expected[student.pk, problem.pk]) if expected else None)


def test_a_rule_changed_in_python_alone_is_caught(db, student, monkeypatch):
    """The comparison can fail: rank a wrong answer above a solve in Python only, and the kept best verdict
    no longer matches."""
    problem = quick_problem("alpha")
    recorded(student, problem, Verdict.WRONG_ANSWER)
    recorded(student, problem, Verdict.ACCEPTED)
    assert snapshot()["states"] == by_the_rules()["states"]
    monkeypatch.setattr(rules, "BEST_FIRST", (Verdict.WRONG_ANSWER, Verdict.ACCEPTED, *rules.BEST_FIRST[2:]))
    assert snapshot()["states"] != by_the_rules()["states"]


def test_the_rules_name_the_windows_as_the_tables_do():
    assert (Period.MONTH.value, Period.WEEK.value) == (rules.MONTH, rules.WEEK)
