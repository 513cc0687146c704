"""The standings kept with each verdict equal those rebuilt from the submissions, whatever happened."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from judge.standings import services
from tests.boards import quick_problem, recorded
from tests.histories import counted_from_submissions, random_history, snapshot


@pytest.mark.parametrize("orm_only", [False, True], ids=["postgresql-upserts", "orm"])
@pytest.mark.parametrize("seed", [1, 2])
def test_rebuilt_standings_equal_the_incremental_ones_after_a_random_history(
    db, django_user_model, monkeypatch, seed, orm_only
):
    if orm_only:  # the ORM rules, as on SQLite, on this database too
        monkeypatch.setattr(services, "in_database", lambda: False)
    rng = random.Random(seed)
    problems = [quick_problem(f"p{i}", order=i) for i in range(6)]
    users = [django_user_model.objects.create_user(f"student{i}") for i in range(12)]
    random_history(rng, users, problems)
    incremental = snapshot()
    assert {user: n for user, n, _ in incremental["totals"]} == counted_from_submissions()
    call_command("rebuild_standings", verbosity=0)
    assert snapshot() == incremental


def test_the_rebuild_reports_what_it_made(db, student, capsys):
    recorded(student, quick_problem("alpha"))
    call_command("rebuild_standings")
    assert "1 student ranked, 1 problem" in capsys.readouterr().out
