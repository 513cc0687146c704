"""The desk's second half in Chromium: a student asks for a regrade of a Submit, the TA resolves it with half a point,
and the gradebook page, its CSV and a fake LMS show the same score; and an assignment whose grades come after the
due time shows the student nothing of the grade before it and everything after (the clock moved in between).
The Submits are rows recorded as a worker records them: no worker is needed."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from engine.verdicts import Verdict
from judge.courses.models import Membership, Release, Role
from tests.browser.conftest import PASSWORD, log_in, screenshot
from tests.courses import DUE, make_world
from tests.desk_release import HIDDEN_TEST, MISTAKE, clock, graded  # noqa: F401 (fixture)
from tests.lti import lms  # noqa: F401 (fixture)
from tests.test_lti_grades import linked, send_all  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_regrade_asked_and_resolved_with_half_a_point_agrees_everywhere(live_server, page, chromium, linked):
    lms, course, assignment, problems, ada, _instructor, _ = linked
    ta = get_user_model().objects.create_user("tariq", "tariq@example.org", PASSWORD)
    Membership.objects.create(course=course, user=ta, role=Role.TA)
    ada.set_password(PASSWORD)
    ada.save()
    submission = graded(ada, problems[0], Verdict.WRONG_ANSWER)
    site = live_server.url

    log_in(page, site, ada.username)
    page.goto(f"{site}/submissions/{submission.pk}/")
    page.locator("#regrade summary", has_text="Ask for a regrade").click()
    page.fill("#regrade textarea[name=message]", "My output matches the statement's float64; the test wants float32.")
    page.get_by_role("button", name="Ask for a regrade").click()
    assert "Your regrade request was sent" in page.locator(".messages").inner_text()
    screenshot(page, "desk-regrade-asked")

    staff = chromium.new_context(viewport={"width": 1360, "height": 900}).new_page()
    log_in(staff, site, "tariq")
    staff.goto(f"{site}/courses/{course.pk}/regrades/")
    staff.locator("#regrades tr[data-request] a").first.click()
    assert "the test wants float32" in staff.locator("#conversation").inner_text()
    staff.fill("textarea[name=message]", "The test's dtype was wrong: half a point back.")
    staff.check("input[name=change]")
    staff.select_option("select[name=kind]", "delta")
    staff.fill("input[name=points]", "0.5")
    staff.get_by_role("button", name="Reply and close").click()
    assert staff.locator("#regrade-status").inner_text() == "Closed"
    screenshot(staff, "desk-regrade-resolved")
    send_all()  # what the maintenance worker does with the queued scores

    staff.goto(f"{site}/courses/{course.pk}/gradebook/")
    row = staff.locator("tr", has_text=ada.username).first.inner_text()
    assert "0.5 ✎" in row
    download = staff.request.get(f"{site}/courses/{course.pk}/gradebook.csv").text()
    [line] = [r for r in csv.DictReader(io.StringIO(download)) if r["Student"] == ada.username]
    assert line[assignment.title] == "0.5"
    assert lms.scores_for("lms-ada")[-1]["scoreGiven"] == 0.5

    page.goto(f"{site}/courses/{course.pk}/")
    assert "resolved (points moved by 0.5)" in page.locator("#notices").inner_text()
    staff.context.close()


def test_grades_released_after_the_due_time_show_nothing_before_and_everything_after(
    live_server, page, clock, django_user_model
):
    w = make_world(django_user_model)
    w.assignment.release = Release.AFTER_DUE
    w.assignment.save()
    w.student.set_password(PASSWORD)
    w.student.save()
    now = clock(DUE - timedelta(days=1))
    submission = graded(w.student, w.problems[0], Verdict.WRONG_ANSWER)
    site = live_server.url

    log_in(page, site, w.student.username)
    page.goto(f"{site}/submissions/{submission.pk}/")
    result = page.locator("#result").inner_text()
    assert "Received and graded" in result and "released after the due time" in result
    assert not [word for word in ("Wrong answer", HIDDEN_TEST, MISTAKE) if word in result]
    screenshot(page, "desk-release-held")
    page.goto(f"{site}/courses/{w.course.pk}/assignments/{w.assignment.pk}/")
    assert "grade not released yet" in page.locator("#problems").inner_text()
    assert page.locator("#my-points").count() == 0

    now.move_to(DUE + timedelta(minutes=1))
    page.goto(f"{site}/submissions/{submission.pk}/")
    result = page.locator("#result").inner_text()
    assert "Wrong answer" in result and MISTAKE in result and HIDDEN_TEST in result
    assert page.locator("#held-note").count() == 0
    page.goto(f"{site}/courses/{w.course.pk}/assignments/{w.assignment.pk}/")
    assert re.search(r"Your points: 0 of 2", page.locator("#my-points").inner_text())
    screenshot(page, "desk-release-released")
