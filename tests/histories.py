"""Random histories of verdicts, rejudges, redeliveries, publishing and deleted accounts, and the standings
tables as sets, for the tests that compare the ways the standings are kept."""

from __future__ import annotations

import random
import uuid
from collections import defaultdict

from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.authoring.lifecycle import unpublish
from judge.grading.recording import record_verdict
from judge.problems.models import Problem
from judge.standings.models import PeriodTotals, ProblemTotals, SolvedLevel, UserProblemState, UserTotals
from judge.standings.services import refresh_problem_standings
from judge.submissions.models import Kind, Status, Submission
from tests.boards import days_ago, recorded, regraded

VERDICTS = [
    Verdict.ACCEPTED,
    Verdict.ACCEPTED,
    Verdict.WRONG_ANSWER,
    Verdict.RUNTIME_ERROR,
    Verdict.TIME_LIMIT_EXCEEDED,
    Verdict.INTERNAL_ERROR,
]


def snapshot() -> dict[str, set]:
    return {
        "states": set(
            UserProblemState.objects.values_list(
                "user_id", "problem_id", "attempts", "accepted", "first_accepted_at", "best_verdict"
            )
        ),
        "totals": set(UserTotals.objects.values_list("user_id", "solved", "reached_at")),
        "periods": set(PeriodTotals.objects.values_list("user_id", "window", "starts_at", "solved", "reached_at")),
        "levels": set(SolvedLevel.objects.filter(users__gt=0).values_list("solved", "users")),
        "problems": set(
            ProblemTotals.objects.values_list(
                "problem_id", "submissions", "accepted", "solvers", "first_solver_id", "first_solved_at"
            )
        ),
    }


def counted_from_submissions() -> dict[int, int]:
    """The plain definition, straight from the submissions: published problems with an accepted Submit."""
    solved = defaultdict(set)
    for user_id, problem_id in Submission.objects.filter(
        kind=Kind.SUBMIT, status=Status.DONE, verdict=Verdict.ACCEPTED, problem__published=True
    ).values_list("user_id", "problem_id"):
        solved[user_id].add(problem_id)
    return {user_id: len(problems) for user_id, problems in solved.items()}


def random_history(rng: random.Random, users, problems, verdicts=VERDICTS, steps: int = 250) -> None:
    submissions = []
    for _ in range(steps):
        action = rng.random()
        if action < 0.7 or not submissions:
            at = days_ago(rng.uniform(0, 70))
            submissions.append(
                recorded(
                    rng.choice(users),
                    rng.choice(problems),
                    rng.choice(verdicts),
                    at=at,
                    kind=Kind.SUBMIT if rng.random() < 0.9 else Kind.RUN,
                )
            )
        elif action < 0.9:
            regraded(rng.choice(submissions), rng.choice(verdicts))  # a rejudge
        elif action < 0.95:
            submission = rng.choice(submissions)  # a redelivered message: the claim is gone, nothing changes
            assert not record_verdict(submission.pk, uuid.uuid4(), GradeReport(Verdict.ACCEPTED))
        elif action < 0.97:
            problem = rng.choice(problems)
            if Problem.objects.get(pk=problem.pk).published:
                unpublish(problem)
            else:
                Problem.objects.filter(pk=problem.pk).update(published=True)
                refresh_problem_standings(problem.pk)
        elif len(users) > 3:
            gone = users.pop(rng.randrange(len(users)))
            submissions = [s for s in submissions if s.user_id != gone.pk]
            gone.delete()
