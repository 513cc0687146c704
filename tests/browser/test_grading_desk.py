"""The grading desk in Chromium: a TA opens a student's attempts from the live matrix, compares two, comments on
a line of one and takes a quarter point off with a reason; the student sees the unread comment on their course
page, reads it under that line and answers; the gradebook shows the adjusted cell. The Submits are recorded
rows: the desk reads what the grader stored, so no worker is needed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from engine.verdicts import Verdict
from judge.submissions.models import Kind, Status, Submission
from tests.browser.conftest import PASSWORD, log_in, screenshot
from tests.courses import DUE, make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = "import numpy as np\n\ndef f(x):\n    return np.exp(x) / np.exp(x).sum()\n"
SECOND = "import numpy as np\n\ndef f(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n"


def attempt(user, problem, code: str, verdict: str, at) -> Submission:
    submission = Submission.objects.create(
        user=user,
        problem=problem,
        test_set_id=problem.current_test_set_id,
        kind=Kind.SUBMIT,
        code=code,
        status=Status.DONE,
        verdict=verdict,
    )
    Submission.objects.filter(pk=submission.pk).update(created_at=at)
    return submission


def test_a_ta_reads_compares_comments_and_adjusts_and_the_student_reads_it(
    live_server, page, chromium, django_user_model
):
    w = make_world(django_user_model)
    for user in (w.ta, w.student):
        user.set_password(PASSWORD)
        user.save()
    problem = w.problems[0]
    attempt(w.student, problem, FIRST, Verdict.WRONG_ANSWER, DUE - timedelta(hours=3))
    attempt(w.student, problem, SECOND, Verdict.ACCEPTED, DUE - timedelta(hours=2))
    site = live_server.url

    log_in(page, site, w.ta.username)
    page.goto(f"{site}/courses/{w.course.pk}/assignments/{w.assignment.pk}/progress/")
    page.locator('tr[data-student="ada"] td.solved a').click()
    page.wait_for_url(re.compile(rf"/students/{w.student.pk}/problems/{problem.slug}/$"))
    assert page.locator("tr[data-attempt]").count() == 2

    page.get_by_role("button", name="Compare the two chosen attempts").click()
    assert "return e / e.sum(axis=-1, keepdims=True)" in page.locator("pre.diff .added").all_inner_texts()[-1]
    screenshot(page, "desk-diff")
    page.go_back()

    page.locator("tr[data-attempt] a").last.click()
    page.fill("#feedback-form input[name=line]", "4")
    page.fill("#feedback-form textarea[name=body]", "Subtracting the **row maximum** keeps `exp` finite.")
    page.get_by_role("button", name="Comment").click()
    under = page.locator('#code .feedback[data-line="4"]')
    assert under.locator("strong").inner_text() == "row maximum"
    screenshot(page, "desk-line-comment")

    page.go_back()
    page.go_back()
    form = page.locator(f'form.adjust[data-assignment="{w.assignment.pk}"]')
    form.locator("select[name=kind]").select_option("delta")
    form.locator("input[name=points]").fill("-0.25")
    form.locator("input[name=reason]").fill("a loop where broadcasting was asked for")
    form.get_by_role("button", name="Save points").click()
    assert page.locator(f'form.adjust[data-assignment="{w.assignment.pk}"] .credit').inner_text() == "0.75"
    page.goto(f"{site}/courses/{w.course.pk}/gradebook/")
    assert "0.75 ✎" in page.locator("tr", has_text="ada").first.inner_text()

    student = chromium.new_context(viewport={"width": 1360, "height": 900}).new_page()
    log_in(student, site, w.student.username)
    student.goto(f"{site}/courses/{w.course.pk}/")
    notice = student.locator("#unread-feedback")
    assert "1 unread comment" in notice.inner_text()
    notice.locator("a").first.click()
    comment = student.locator('#code .feedback[data-line="4"]')
    assert "row maximum" in comment.inner_text()
    comment.locator("textarea[name=body]").fill("Thanks, I had forgotten the overflow.")
    comment.get_by_role("button", name="Answer").click()
    assert "Thanks, I had forgotten the overflow." in student.locator('#code .feedback[data-line="4"]').inner_text()
    screenshot(student, "desk-student-reads")
    student.goto(f"{site}/courses/{w.course.pk}/")
    assert student.locator("#unread-feedback").count() == 0
    student.context.close()
