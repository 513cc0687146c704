"""An instructor runs a course in Chromium: creates it and an assignment with a late rule; students join with the
code and submit before, during and after the late window (time is moved by moving the assignment's dates, never
slept); the matrix updates without a reload; an extension changes one student's credit; the CSV has the expected
numbers; the similarity check ranks the planted copy first. A real worker grades every Submit."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from django.utils import timezone

from judge.courses.models import Assignment
from judge.submissions.models import Submission
from tests.browser.conftest import PASSWORD, log_in, open_problem, replace_code, screenshot, submit_and_wait

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"
OWN = """import numpy as np


def prepend_class_token(patches, cls_token):
    out = np.empty((patches.shape[0], patches.shape[1] + 1, patches.shape[2]), dtype=np.float64)
    out[:, 0, :] = cls_token.reshape(-1)
    out[:, 1:, :] = patches
    return out
"""


# ada's own way (the reference solution's lines are everyone's: a copy of it could not be told from writing it)
ADA = """import numpy as np


def prepend_class_token(patches, cls_token):
    first = np.repeat(cls_token.reshape(1, 1, -1), patches.shape[0], axis=0)
    joined = np.hstack([first, patches])
    return joined.astype(np.float64)
"""


def local(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")  # the instructor reads and types UTC (their default zone)


def move_time(assignment_pk: int, by: timedelta) -> None:
    """As if ``by`` had passed: the assignment's dates, its overrides' and every Submit made so far move that much
    into the past, so what was made before a date stays before it."""
    Submission.objects.update(created_at=F("created_at") - by)
    assignment = Assignment.objects.get(pk=assignment_pk)
    for row in [assignment, *assignment.overrides.all()]:
        for name in ("opens_at", "due_at", "closes_at"):
            if getattr(row, name):
                setattr(row, name, getattr(row, name) - by)
        row.save()


def new_page(chromium, site: str, username: str):
    context = chromium.new_context(viewport={"width": 1360, "height": 900})
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, site, username)
    return page


def solve(page, site: str, code: str) -> str:
    open_problem(page, site, SLUG)
    replace_code(page, code)
    return submit_and_wait(page).query_selector("#verdict").inner_text()


def test_an_instructor_runs_a_course_from_creation_to_similarity(site, page, chromium):
    users = get_user_model().objects
    users.create_user("prof", password=PASSWORD, is_staff=True)
    for name in ("ada", "grace", "third"):
        users.create_user(name, f"{name}@example.org", PASSWORD)
    log_in(page, site, "prof")

    # The course, its code, and an assignment due in an hour with a late window of a day at half credit.
    page.goto(f"{site}/courses/")
    page.fill("#create-course #id_title", "Transformers")
    page.fill("#create-course #id_term", "Spring")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/courses/\d+/$"))
    course_url = page.url
    page.get_by_role("link", name="New assignment").click()
    now = timezone.now()
    page.fill("#id_title", "Week 1")
    page.check(f'input[name=problems][value="{SLUG}"]')
    page.fill("#id_opens_at", local(now - timedelta(hours=1)))
    page.fill("#id_due_at", local(now + timedelta(hours=1)))
    page.fill("#id_closes_at", local(now + timedelta(hours=25)))
    page.select_option("#id_late_rule", "multiplier")
    page.fill("#id_late_multiplier", "0.5")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/assignments/\d+/$"))
    assignment_url = page.url
    assignment_pk = int(assignment_url.rstrip("/").rsplit("/", 1)[1])
    page.goto(f"{course_url}settings/")
    code = page.inner_text("#join-code")

    # Students join with the code; the third is the copy's source's classmate and joins by the link.
    students = {name: new_page(chromium, site, name) for name in ("ada", "grace", "third")}
    for name in ("ada", "grace"):
        student = students[name]
        student.goto(f"{site}/courses/")
        student.fill("input[name=code]", code)
        student.get_by_role("button", name="Join").click()
        student.wait_for_selector("text=You joined Transformers")
    students["third"].goto(f"{site}/courses/join/{code}/")
    students["third"].get_by_role("button", name="Join").click()
    students["third"].wait_for_selector("text=You joined Transformers")

    # The instructor watches the matrix; it changes as Submits are graded, with no reload.
    page.goto(f"{assignment_url}progress/")
    page.wait_for_selector('tr[data-student="ada"] td.not-started')

    solution = ADA
    students["ada"].goto(f"{site}/problems/{SLUG}/")
    assert "Week 1 (Transformers (Spring)): Due in" in students["ada"].inner_text(".due-note")
    assert solve(students["ada"], site, solution) == "Accepted"  # before the due time
    page.wait_for_selector('tr[data-student="ada"] td.solved', timeout=60_000)

    move_time(assignment_pk, timedelta(hours=2))  # now an hour into the late window
    students["grace"].goto(f"{site}/problems/{SLUG}/")
    assert "earns 50%" in students["grace"].inner_text(".due-note")
    # grace's planted copy: ada's program, renamed and spaced out
    copy = solution.replace("first", "token_row").replace("joined", "result").replace("\n", "\n\n")
    assert solve(students["grace"], site, copy) == "Accepted"
    page.wait_for_selector('tr[data-student="grace"] td.solved.late', timeout=60_000)

    move_time(assignment_pk, timedelta(hours=24))  # after the hard close
    students["third"].goto(f"{site}/problems/{SLUG}/")
    assert "practice" in students["third"].inner_text(".due-note")
    assert solve(students["third"], site, OWN) == "Accepted"  # still graded, counts for nothing
    page.wait_for_selector('tr[data-student="third"] td.solved', timeout=60_000)
    assert "(practice)" in page.inner_text('tr[data-student="third"]'), (
        Assignment.objects.filter(pk=assignment_pk).values("opens_at", "due_at", "closes_at").first(),
        list(Submission.objects.values_list("user__username", "created_at")),
        timezone.now(),
    )
    screenshot(page, "course-progress")  # docs/instructors/courses.md

    # The gradebook before and after grace's extension.
    page.goto(f"{course_url}gradebook/")
    assert page.inner_text('#gradebook tr:has(td:text-is("grace")) td.late') == "0.5 L"
    page.goto(f"{assignment_url}overrides/")
    grace_due = Submission.objects.get(user__username="grace").created_at + timedelta(minutes=5)
    page.fill("#override-form #id_student", "grace")
    page.fill("#override-form #id_due_at", local(grace_due))
    page.fill("#override-form #id_closes_at", local(grace_due + timedelta(hours=1)))
    page.fill("#override-form #id_reason", "Your due time moved, as agreed")
    page.fill("#override-form #id_staff_note", "doctor's note")
    page.get_by_role("button", name="Save override").click()
    page.wait_for_selector("text=Override saved.")
    page.goto(f"{course_url}gradebook/")
    assert page.inner_text('#gradebook tr:has(td:text-is("grace")) td:nth-child(3)') == "1"
    screenshot(page, "course-gradebook")  # docs/instructors/courses.md
    with page.expect_download() as download:
        page.click("#csv")
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    marks = {row[0]: row[5] for row in rows[1:]}
    assert rows[0][5] == "Week 1" and marks == {"ada": "1", "grace": "1", "third": "0"}

    # The similarity check ranks the planted copy first.
    page.goto(f"{assignment_url}similarity/?problem={SLUG}&run=1")
    first = page.inner_text("#pairs li:first-child h2")
    assert first.startswith("ada and grace"), first
    screenshot(page, "course-similarity")
    for student in students.values():
        student.context.close()
