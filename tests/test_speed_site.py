"""What a student sees of speed: the ratio, the vectorised mark and the percentile on an accepted Submit, the
problem's ranking (one row per student), and the API's one rounded figure; nothing about the inputs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from engine.speed import BENCH_DRAWS, SpeedReport, code_key, percentile
from engine.verdicts import Verdict
from judge.accounts.models import Profile
from judge.grading import services as grading
from judge.problems.models import BenchmarkCase
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.services import intake
from judge.submissions.speed import ranking, standing
from judge.tokens.services import create_token
from tests.conftest import read_solution

SYNCED_PROBLEMS = ["layer_norm"]


def accepted(user, problem, ratio: float | None, **speed) -> Submission:
    figure = None if ratio is None else {"ratio": ratio, "vectorised": ratio <= 2, **speed}
    return Submission.objects.create(
        user=user,
        problem=problem,
        kind=Kind.SUBMIT,
        code="x = 1\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        speed=figure,
        test_set=problem.current_test_set,
    )


@pytest.fixture
def classmates(django_user_model, problems):
    problem = problems["layer_norm"]
    users = [django_user_model.objects.create_user(f"peer{i}", password="x") for i in range(4)]
    for user, ratio in zip(users, (0.9, 1.5, 8.0, 40.0)):
        accepted(user, problem, ratio)
    accepted(users[3], problem, 30.0)  # a student counts once, with their best
    return users


def test_another_figure_counts_by_the_chance_it_is_really_slower_and_nobody_else_gives_no_percentile():
    assert percentile(1.5, [0.9, 1.5, 8.0, 30.0]) == 63  # an equal figure counts half
    # Two measurements of the same code differ by a few percent, so 10% apart is likely, not certain.
    assert percentile(1.0, [1.1]) == 83 and percentile(1.1, [1.0]) == 17
    assert percentile(1.0, [2.0]) == 100
    assert percentile(0.5, [0.9, 8.0]) == 100 and percentile(50.0, [0.9, 8.0]) == 0
    assert percentile(1.0, []) is None


def test_a_figure_a_little_slower_moves_the_percentile_a_little():
    """With a hard tie (within 15%: half) a 2% slower figure carried five classmates at 1.16 across its edge,
    from 100% to 50%: the same code's noise alone."""
    classmates = [1.16] * 5
    assert abs(percentile(1.0, classmates) - percentile(1.02, classmates)) <= 5


def test_the_percentile_counts_each_other_student_once_with_their_best(problems, student, classmates):
    mine = accepted(student, problems["layer_norm"], 1.5)
    accepted(student, problems["layer_norm"], 0.5)  # the student's own other Submits are not "others"
    shown = standing(mine)
    assert (shown.ratio, shown.vectorised, shown.percentile, shown.others) == (1.5, True, 63, 4)


def test_percentiles_and_the_ranking_compare_precise_ratios_and_show_rounded_ones(problems, student, classmates):
    """Rounded, 1.04 and 1.06 would be 1.0 and 1.1: a step as large as the noise of one measurement."""
    problem = problems["layer_norm"]
    mine = accepted(student, problem, 1.0, ratio_precise=1.04)
    accepted(classmates[0], problem, 1.1, ratio_precise=1.06)
    shown = standing(mine)
    others = [0.9, 1.5, 8.0, 30.0]  # each classmate's best
    assert shown.ratio == 1.0 and shown.percentile == percentile(1.04, others) != percentile(1.0, others)
    accepted(classmates[2], problem, 1.0, ratio_precise=1.01)  # shown as ada's is, but faster
    rows = ranking(problem, student)
    assert [(r.rank, r.username, r.ratio) for r in rows[:4]] == [
        (1, "peer0", 0.9),
        (2, "peer2", 1.0),
        (2, "ada", 1.0),
        (4, "peer1", 1.5),
    ]


def test_the_result_panel_shows_the_ratio_the_mark_and_the_percentile(client, problems, student, classmates):
    fast = accepted(student, problems["layer_norm"], 1.2)
    client.force_login(student)
    html = client.get(reverse("submission-detail", args=[fast.pk])).content.decode()
    assert "1.2&times;</strong> the reference's CPU time" in html
    assert 'class="vectorised-mark"' in html
    assert "faster than 75% of the other students' accepted solutions" in html
    slow = accepted(student, problems["layer_norm"], 12.0)
    html = client.get(reverse("submission-detail", args=[slow.pk])).content.decode()
    assert "12.0&times;" in html and 'class="vectorised-mark"' not in html
    assert "faster than 25%" in html


def test_a_submit_without_a_figure_says_why(client, problems, student):
    refused = accepted(student, problems["layer_norm"], None)
    refused.speed = {"ratio": None, "vectorised": False, "message": "the CPU time could not be read: no speed figure"}
    refused.save()
    client.force_login(student)
    html = client.get(reverse("submission-detail", args=[refused.pk])).content.decode()
    assert "Speed: not measured (the CPU time could not be read" in html


def test_the_ranking_has_one_row_per_student_fastest_first(client, problems, student, classmates):
    Profile.objects.update_or_create(user=classmates[1], defaults={"hide_from_standings": True})
    accepted(student, problems["layer_norm"], 8.0)
    rows = ranking(problems["layer_norm"], student)
    assert [(r.rank, r.username, r.ratio) for r in rows] == [
        (1, "peer0", 0.9),
        (2, "anonymous", 1.5),
        (3, "ada", 8.0),
        (3, "peer2", 8.0),
        (5, "peer3", 30.0),
    ]
    assert [r.mine for r in rows] == [False, False, True, False, False]
    client.force_login(student)
    html = client.get("/problems/layer_norm/speed/").content.decode()
    assert html.count('class="vectorised-mark"') == 3  # two rows, and the explanation above the table
    assert "peer1" not in html and "(you)" in html


def test_the_api_gives_the_one_rounded_figure(client, problems, student, classmates):
    mine = accepted(student, problems["layer_norm"], 1.5, student_ms=3.21, reference_ms=2.1, repeats=3)
    token = create_token(student, "laptop", ["read"])[1]
    data = client.get(f"/api/v1/submissions/{mine.pk}", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert data["speed"] == {"ratio": 1.5, "vectorised": True, "percentile": 63}


@pytest.mark.slow
def test_an_accepted_submit_is_measured_after_its_verdict(client, problems, student, no_enqueue, settings, monkeypatch):
    """End to end in the process sandbox: the gate drew the benchmark, the Submit is graded, and its timing is
    sent as a task of its own, which the worker takes after the waiting verdicts; the page says it is coming."""
    settings.MEASURE_SPEED = True
    sent = []
    monkeypatch.setattr(grading, "enqueue_speed", sent.append)
    problem = problems["layer_norm"]
    assert 5 <= BenchmarkCase.objects.filter(test_set=problem.current_test_set).count() <= BENCH_DRAWS
    submission = intake.submit_solution(student, problem, read_solution("layer_norm"))
    assert grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    assert submission.verdict == Verdict.ACCEPTED and submission.speed is None and sent == [submission.pk]
    client.force_login(student)
    assert "Speed: being measured" in client.get(reverse("submission-detail", args=[submission.pk])).content.decode()
    grading.measure_submission_speed(submission.pk)  # the worker's task
    submission.refresh_from_db()
    assert submission.speed["ratio"] is not None and submission.speed["vectorised"]
    # The figure is rounded to two significant figures: one number, nothing more precise about the inputs.
    assert float(f"{submission.speed['ratio']:.2g}") == submission.speed["ratio"]
    assert "the reference's CPU time" in client.get(reverse("submission-detail", args=[submission.pk])).content.decode()
    wrong = intake.submit_solution(student, problem, read_solution("layer_norm", "wrong/unbiased_variance.py"))
    grading.grade_submission(wrong.pk)
    wrong.refresh_from_db()
    assert wrong.verdict != Verdict.ACCEPTED and wrong.speed is None and sent == [submission.pk]


def test_a_speed_task_times_only_an_accepted_submit_still_without_a_figure(problems, student, settings, monkeypatch):
    """A rejudge may refuse the Submit before its turn comes, and a repeated message finds it measured."""
    settings.MEASURE_SPEED = True
    timed = []
    monkeypatch.setattr(grading, "record_speed", lambda submission, solved: timed.append(submission.pk))
    refused = accepted(student, problems["layer_norm"], None)
    Submission.objects.filter(pk=refused.pk).update(verdict=Verdict.WRONG_ANSWER)
    measured = accepted(student, problems["layer_norm"], 1.5)
    waiting = accepted(student, problems["layer_norm"], None)
    for submission in (refused, measured, waiting):
        grading.measure_submission_speed(submission.pk)
    assert timed == [waiting.pk]


def test_a_figure_whose_task_was_lost_is_said_not_to_come(client, problems, student, settings):
    settings.MEASURE_SPEED = True
    waiting = accepted(student, problems["layer_norm"], None)
    client.force_login(student)
    Submission.objects.filter(pk=waiting.pk).update(finished_at=timezone.now())
    assert "Speed: being measured" in client.get(reverse("submission-detail", args=[waiting.pk])).content.decode()
    Submission.objects.filter(pk=waiting.pk).update(
        finished_at=timezone.now() - timedelta(seconds=settings.SPEED_GIVE_UP_S + 1)
    )
    page = client.get(reverse("submission-detail", args=[waiting.pk])).content.decode()
    assert "Speed: not measured (its timing did not run" in page


def test_a_figure_stops_showing_when_a_rejudge_refuses_the_submit(client, problems, student, classmates):
    rejudged = accepted(student, problems["layer_norm"], 0.5)
    Submission.objects.filter(pk=rejudged.pk).update(verdict=Verdict.WRONG_ANSWER)
    client.force_login(student)
    assert "Speed:" not in client.get(reverse("submission-detail", args=[rejudged.pk])).content.decode()
    assert [r.username for r in ranking(problems["layer_norm"])][:1] == ["peer0"]


def test_code_measured_before_gets_its_figure_again_without_being_timed(
    problems, student, classmates, settings, monkeypatch
):
    """Another student's Submit of the same code (laid out otherwise) stores the figure it was measured at and
    names the Submit measured; different code is timed."""
    settings.MEASURE_SPEED = True
    problem = problems["layer_norm"]
    code = read_solution("layer_norm")
    measured = accepted(classmates[0], problem, None)
    key = code_key(code, problem.solution_code, {})
    Submission.objects.filter(pk=measured.pk).update(
        code=code,
        speed={
            "ratio": 1.1,
            "vectorised": True,
            "repeats": 13,
            "student_ms": 2.0,
            "reference_ms": 1.8,
            "message": "",
            "ratio_precise": 1.112,
            "code_key": key,
        },
    )
    timed = []
    monkeypatch.setattr(grading, "measure_speed", lambda *args, **kwargs: timed.append(args[0]) or SpeedReport(3.0))
    again = accepted(student, problem, None)
    Submission.objects.filter(pk=again.pk).update(code="# mine\n" + code.replace("\n\n", "\n"))
    grading.measure_submission_speed(again.pk)
    again.refresh_from_db()
    assert timed == []
    assert again.speed["ratio"] == 1.1 and again.speed["ratio_precise"] == 1.112
    assert again.speed["same_code_as"] == measured.pk
    other = accepted(student, problem, None)
    Submission.objects.filter(pk=other.pk).update(code=code + "\nUNUSED = 1\n")
    grading.measure_submission_speed(other.pk)
    other.refresh_from_db()
    assert len(timed) == 1 and other.speed["ratio"] == 3.0


def test_the_speed_line_a_page_asks_for_is_its_owners_alone(client, problems, student, second_student, settings):
    settings.MEASURE_SPEED = True
    waiting = accepted(student, problems["layer_norm"], None)
    Submission.objects.filter(pk=waiting.pk).update(finished_at=timezone.now())
    client.force_login(student)
    line = client.get(reverse("submission-speed", args=[waiting.pk])).content.decode()
    assert "being measured" in line and 'hx-trigger="every 3s"' in line
    client.force_login(second_student)
    assert client.get(reverse("submission-speed", args=[waiting.pk])).status_code == 404


def test_a_students_new_code_is_timed_at_most_once_every_few_minutes_and_the_page_says_so(
    client, problems, student, classmates, settings, monkeypatch
):
    """After a Submit of theirs was timed, a student's new code for the problem waits SPEED_RETIME_AFTER_S for a
    figure of its own: sent sooner it is not timed, its page says why and when, and their standing stays the
    timed Submit's; sent again once that time has passed, it is timed."""
    settings.MEASURE_SPEED = True
    settings.SPEED_RETIME_AFTER_S = 600.0
    problem = problems["layer_norm"]
    timed = []
    monkeypatch.setattr(grading, "measure_speed", lambda *args, **kwargs: timed.append(args[0]) or SpeedReport(1.4))
    first = accepted(student, problem, None)
    Submission.objects.filter(pk=first.pk).update(code=read_solution("layer_norm"), finished_at=timezone.now())
    grading.measure_submission_speed(first.pk)
    polished = accepted(student, problem, None)
    Submission.objects.filter(pk=polished.pk).update(code=read_solution("layer_norm") + "\nUNUSED = 1\n")
    grading.measure_submission_speed(polished.pk)
    polished.refresh_from_db()
    assert len(timed) == 1 and polished.speed["ratio"] is None and polished.speed["not_timed_after"] == first.pk
    client.force_login(student)
    html = client.get(reverse("submission-detail", args=[polished.pk])).content.decode()
    assert f"Speed: not measured (your Submit #{first.pk} of this problem was timed less than 10 minutes ago" in html
    first.refresh_from_db()
    assert standing(first).ratio == 1.4
    Submission.objects.filter(pk=first.pk).update(finished_at=timezone.now() - timedelta(minutes=11))
    again = accepted(student, problem, None)
    Submission.objects.filter(pk=again.pk).update(code=polished.code + "\n")
    grading.measure_submission_speed(again.pk)
    again.refresh_from_db()
    assert len(timed) == 2 and again.speed["ratio"] == 1.4


def test_every_submit_is_timed_when_retiming_is_not_limited(problems, student, settings, monkeypatch):
    settings.MEASURE_SPEED = True
    settings.SPEED_RETIME_AFTER_S = 0
    problem = problems["layer_norm"]
    timed = []
    monkeypatch.setattr(grading, "measure_speed", lambda *args, **kwargs: timed.append(args[0]) or SpeedReport(1.4))
    for variant in range(2):
        submission = accepted(student, problem, None)
        Submission.objects.filter(pk=submission.pk).update(
            code=read_solution("layer_norm") + f"\nVARIANT = {variant}\n", finished_at=timezone.now()
        )
        grading.measure_submission_speed(submission.pk)
    assert len(timed) == 2
