"""A Run on the student's own inputs is graded against the reference's output on them, computed in the sandbox."""

from __future__ import annotations

import pytest
from django.urls import reverse

from judge.display.results import result_rows
from judge.grading import services as grading
from judge.submissions.models import Kind, Submission
from judge.submissions.services import intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"
# Appends the class token instead of prepending it.
APPENDS = """
import numpy as np

def prepend_class_token(patches, cls_token):
    tiled = np.broadcast_to(cls_token, (patches.shape[0], 1, patches.shape[2]))
    return np.concatenate([patches, tiled], axis=1)
"""
INPUTS = {"patches": "[[[1.0, 2.0], [3.0, 4.0]]]", "cls_token": "np.array([[[9, 8]]])"}


def custom_run(student, problem, code: str, inputs: dict) -> Submission:
    submission = intake.submit_custom_run(student, problem, code, inputs)
    assert grading.grade_submission(submission.pk) is True
    submission.refresh_from_db()
    return submission


def test_a_correct_solution_matches_the_reference_on_the_students_input(problems, student, no_enqueue):
    submission = custom_run(student, problems[SLUG], read_solution(SLUG), INPUTS)
    assert submission.kind == Kind.RUN and submission.verdict == "accepted"
    row = result_rows(submission)[0]
    assert row.expected.text.replace(" ", "").replace("\n", "") == "[[[9.,8.],[1.,2.],[3.,4.]]]"


def test_a_wrong_solution_sees_expected_and_its_own_result(problems, student, no_enqueue):
    submission = custom_run(student, problems[SLUG], APPENDS, INPUTS)
    assert submission.verdict == "wrong_answer"
    row = result_rows(submission)[0]
    assert row.status == "wrong_value" and row.actual is not None
    assert row.actual.text.replace(" ", "").replace("\n", "") == "[[[1.,2.],[3.,4.],[9.,8.]]]"
    assert [a.label for a in row.inputs] == ["patches", "cls_token"]


def test_inputs_that_do_not_fit_together_are_not_valid_for_the_problem(problems, student, client, no_enqueue):
    # Issue 25: this showed the reference's own error and line number, and the history listed the Run as "Done".
    submission = custom_run(student, problems[SLUG], read_solution(SLUG), INPUTS | {"cls_token": "[[[1.0, 2.0, 3.0]]]"})
    assert submission.verdict == ""
    assert submission.message == (
        "this input is not valid for this problem: the reference cannot compute an answer for it; check that the "
        "shapes fit together (yours: patches (1, 2, 2), cls_token (1, 1, 3); "
        "the example's: patches (1, 2, 3), cls_token (1, 1, 3))"
    )
    client.force_login(student)
    panel = client.get(f"/submissions/{submission.pk}/status/").content.decode()
    page = client.get(reverse("problem-detail", args=[problems[SLUG].slug])).content.decode()
    for shown in (panel, page):
        after = shown.split("this input is not valid", 1)[-1][:400]
        assert "line " not in after and "reference solution raised" not in shown
    assert '<span class="verdict invalid_input" id="verdict" data-verdict="">Invalid input</span>' in panel
    history = page.split('<div id="history">', 1)[1].split("</table>", 1)[0]
    assert '<span class="verdict invalid_input">Invalid input</span>' in history and "Done" not in history


def test_a_bad_literal_creates_no_submission(problems, student, no_enqueue):
    with pytest.raises(intake.CustomInputRejected) as caught:
        intake.submit_custom_run(student, problems[SLUG], read_solution(SLUG), INPUTS | {"patches": "[[1, 2]"})
    assert "patches" in caught.value.errors
    assert not Submission.objects.exists()


def test_without_a_reference_the_custom_run_is_refused_clearly(problems, student, no_enqueue):
    problem = problems[SLUG]
    problem.solution_code = ""
    problem.save()
    with pytest.raises(intake.SubmissionRejected, match="no reference solution"):
        intake.submit_custom_run(student, problem, read_solution(SLUG), INPUTS)


def test_the_problem_page_prefills_the_first_example_and_a_bad_post_marks_the_field(client, problems, student):
    client.force_login(student)
    page = client.get(f"/problems/{SLUG}/").content.decode()
    assert 'name="input-patches"' in page and "[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]" in page
    answer = client.post(
        f"/submissions/new/{SLUG}/",
        {"code": read_solution(SLUG), "kind": "custom", "input-patches": "[[1, 2]", "input-cls_token": "[[[1]]]"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Not submitted: fix the custom input" in answer and "not a valid literal" in answer
    assert 'id="custom-error-patches"' in answer and not Submission.objects.exists()
