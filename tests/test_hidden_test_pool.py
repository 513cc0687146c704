"""Hidden inputs read back from one Submit are worthless for the next: each Submit draws its own."""

from __future__ import annotations

import io

import numpy as np

from engine.grading import grade
from engine.pool import draw_cases
from judge.grading import services as grading
from judge.problems.models import TestCase
from judge.problems.queries import load_cases, problem_spec
from judge.submissions.models import Submission
from judge.submissions.services import intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"


def published_cases(problem):
    return load_cases(problem.current_test_set)


def test_a_published_problem_keeps_secret_draws_of_its_small_random_hidden_cases(problems):
    rows = TestCase.objects.filter(test_set=problems[SLUG].current_test_set)
    drawn = rows.exclude(variant=0)
    assert drawn.exists() and all(row.hidden and not row.probe for row in drawn)
    assert not rows.filter(hidden=False).exclude(variant=0).exists()  # the examples never change
    seed = {row.name: bytes(row.inputs) for row in rows.filter(variant=0)}
    assert all(bytes(row.inputs) != seed[row.name] for row in drawn)
    # The large case stays as the published seed made it: too many values to read back.
    assert not drawn.filter(name="large_batch_vit_grid").exists()


def test_the_reference_is_accepted_on_every_draw(problems, process_sandbox):
    problem = problems[SLUG]
    cases = published_cases(problem)
    variants = {case.variant for case in cases}
    assert len(variants) > 2
    for draw in range(len(variants) - 1):
        report = grade(problem.solution_code, problem_spec(problem), draw_cases(cases, draw), process_sandbox)
        assert report.verdict == "accepted", draw


def test_draws_give_other_inputs_and_the_same_draw_the_same(problems):
    cases = published_cases(problems[SLUG])
    inputs = {draw: {c.name: c.inputs for c in draw_cases(cases, draw) if c.hidden} for draw in range(4)}
    assert inputs[0]["random_small"] != inputs[1]["random_small"]
    assert inputs[0] == {c.name: c.inputs for c in draw_cases(cases, 0) if c.hidden}
    assert inputs[0]["large_batch_vit_grid"] == inputs[1]["large_batch_vit_grid"]
    assert sorted(c.name for c in draw_cases(cases, 0)) == sorted(c.name for c in cases if c.variant == 0)


def hard_coded(case) -> str:
    """A solution that knows one hidden case's inputs and answer, and nothing else."""
    patches = np.load(io.BytesIO(case.inputs["patches"]), allow_pickle=False)
    expected = np.load(io.BytesIO(case.expected), allow_pickle=False)
    return (
        f"import numpy as np\nKNOWN = np.array({patches.tolist()!r})\nANSWER = np.array({expected.tolist()!r})\n"
        "def prepend_class_token(patches, cls_token):\n"
        "    if patches.shape == KNOWN.shape and np.array_equal(patches, KNOWN):\n        return ANSWER\n"
        "    return np.concatenate([np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2])), "
        "patches], 1) + (patches.shape[1] > 2)\n"
    )


def test_answers_read_back_from_one_draw_fail_on_the_draw_a_submit_gets(problems, student, no_enqueue):
    problem = problems[SLUG]
    leaked = next(c for c in published_cases(problem) if c.name == "random_small" and c.variant == 0)
    submission = intake.submit_solution(student, problem, hard_coded(leaked))
    assert grading.grade_submission(submission.pk)
    submission.refresh_from_db()
    row = next(t for t in submission.results if t["name"] == "random_small")
    assert submission.verdict == "wrong_answer" and row["status"] == "wrong_value"


def test_a_rejudge_grades_the_same_draw_again(problems, student, no_enqueue):
    problem = problems[SLUG]
    submission = intake.submit_solution(student, problem, read_solution(SLUG, "wrong/appended.py"))
    assert grading.grade_submission(submission.pk)
    first = Submission.objects.get(pk=submission.pk)
    assert intake.requeue([submission.pk], {problem.pk: problem.current_test_set_id}) == 1
    assert grading.grade_submission(submission.pk, capped=False)
    again = Submission.objects.get(pk=submission.pk)
    assert again.draw == first.draw
    assert [t["signature"] for t in again.results] == [t["signature"] for t in first.results]


def test_a_misconception_is_named_on_every_draw(problems, student, no_enqueue):
    problem = problems[SLUG]
    for draw in range(4):
        submission = intake.submit_solution(student, problem, read_solution(SLUG, "wrong/appended.py"))
        Submission.objects.filter(pk=submission.pk).update(draw=draw)
        assert grading.grade_submission(submission.pk)
        submission.refresh_from_db()
        failing = [t for t in submission.results if t["hidden"] and t["status"] != "passed"]
        assert failing and all(
            t["misconception"].get("name") == "Class token appended instead of prepended" for t in failing
        ), submission.draw


def test_a_case_whose_weights_are_large_is_not_drawn_again(process_sandbox):
    """A ``params`` argument's arrays count toward a case's size: decode_with_kv_cache's cases carry a GPT's
    weights in one (a few hundred bytes of top-level inputs, megabytes in all); counted without them, every case
    was drawn four times and the reference's job for the pool (71 MB) exceeded a frame, so the problem never
    published on a fresh start."""
    from engine.package import load_package
    from engine.pool import POOL_MAX_INPUT_BYTES, _drawn_cases
    from engine.spec import array_inputs
    from engine.testset import generate_cases
    from sandbox.protocol import MAX_FRAME_BYTES
    from tests.conftest import PROBLEMS

    package = load_package(PROBLEMS / "decode_with_kv_cache")
    base = generate_cases(package, process_sandbox)
    drawn = _drawn_cases(package, process_sandbox, [11, 12, 13, 14], base)
    sizes = [sum(len(v) for v in array_inputs(case.inputs).values()) for _, case in drawn]
    assert all(size <= POOL_MAX_INPUT_BYTES for size in sizes)
    assert "long_generation_600" not in {name.split("~")[0] for name in (case.name for _, case in drawn)}
    assert sum(sizes) < MAX_FRAME_BYTES // 4
