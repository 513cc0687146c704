"""In Chromium, against a platform of our own on 127.0.0.1: an administrator registers it, an instructor
deep-links an assignment from the LMS, a student launches it, solves the problem, and the platform receives the
score from the worker; a rejudge lowers it and the platform receives the new one.

The tool is reached at 127.0.0.1 (not the live server's "localhost"), so the LMS and the tool are the same site
and the library's state cookie, Lax over plain HTTP, comes back with the launch's cross-origin POST; over HTTPS
it is SameSite=None; Secure and works cross-site too."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model

from judge.authoring.models import RejudgeScope
from judge.authoring.services import request_rejudge
from judge.courses import services as course_services
from judge.courses.models import Course
from judge.lti.models import LtiUser
from judge.problems.models import Problem
from judge.submissions.models import Submission
from tests.browser.conftest import PASSWORD, log_in, open_problem, replace_code, screenshot, submit_and_wait
from tests.conftest import read_solution
from tests.lti_platform import INSTRUCTOR, LEARNER, LtiPlatform

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SYNCED_PROBLEMS = ["prepend_class_token"]
SLUG = "prepend_class_token"
WRONG = """import numpy as np


def prepend_class_token(patches, cls_token):
    return patches
"""


def wait_for(condition, what: str, timeout: float = 120):
    """Wait for a state the worker brings about (a score reaching the platform)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"waited {timeout} s for {what}")


@pytest.fixture
def tool(live_server, problems, grading_worker):
    base = live_server.url.replace("localhost", "127.0.0.1")
    platform = LtiPlatform(base)
    yield base, platform
    platform.close()


def test_an_lms_course_links_an_assignment_and_its_scores_come_back(tool, page, chromium):
    base, lms = tool
    get_user_model().objects.create_user("admin", password=PASSWORD, is_staff=True)

    # The administrator registers the LMS and reads what to paste into it.
    log_in(page, base, "admin")
    page.goto(f"{base}/lti/platforms/")
    assert f"{base}/lti/login/" in page.locator("#tool-values").inner_text()
    for name, value in lms.registration().items():
        if name != "enabled":
            page.fill(f"#id_{name}", value)
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(re.compile(r"/lti/platforms/\d+/$"))
    page.context.clear_cookies()

    # The instructor adds the tool in the LMS: the first launch makes the course; they pick the assignment.
    teacher = lms.person("lms-teacher", "Iris", "Ng", [INSTRUCTOR])
    page.goto(lms.login_url(teacher, deep_linking=True))
    page.wait_for_url(re.compile(r"/lti/deep-link/[^/]+/$"))
    assert "no assignments yet" in page.locator("main").inner_text()
    course = Course.objects.get()
    course_services.save_assignment(course, None, {"title": "Week 1: tokens"}, [Problem.objects.get(slug=SLUG)])
    page.reload()
    page.get_by_label(re.compile("Week 1: tokens")).check()
    page.get_by_role("button", name="Link this assignment").click()
    page.get_by_role("button", name="Add it to Test LMS").click()
    page.wait_for_selector("#added")
    [link] = lms.links.values()
    assert link.title == "Week 1: tokens" and lms.recorded.deep_links
    page.context.clear_cookies()

    # A student follows the link: signed in, on the assignment; they solve it and the LMS gets 1 of 1.
    student = lms.person("lms-ada", "Ada", "Lovelace", [LEARNER])
    page.goto(lms.login_url(student, link))
    page.wait_for_url(re.compile(r"/courses/\d+/assignments/\d+/$"))
    assert "Week 1: tokens" in page.locator("h1").inner_text()
    open_problem(page, base, SLUG)
    replace_code(page, read_solution(SLUG))
    assert "Accepted" in submit_and_wait(page).query_selector("#verdict").inner_text()
    first = wait_for(lambda: lms.scores_for("lms-ada"), "the first score")[-1]
    assert (first["scoreGiven"], first["scoreMaximum"], first["activityProgress"]) == (1.0, 1.0, "Completed")
    assert first["lineitem"] == link.lineitem

    # The author's stricter tests (stood in for by a wrong program in its place) and a rejudge: 0 of 1 arrives.
    ada = LtiUser.objects.get(sub="lms-ada").user
    Submission.objects.filter(user=ada).update(code=WRONG)
    request_rejudge(
        get_user_model().objects.get(username="admin"), RejudgeScope.PROBLEM, Problem.objects.get(slug=SLUG)
    )
    last = wait_for(lambda: [s for s in lms.scores_for("lms-ada") if s["scoreGiven"] == 0.0], "the lowered score")[-1]
    assert lms.scores_for("lms-ada")[-1] == last and last["timestamp"] > first["timestamp"]

    # The instructor sees what was sent.
    page.context.clear_cookies()
    page.goto(lms.login_url(teacher))
    page.wait_for_url(re.compile(r"/courses/\d+/$"))
    page.get_by_role("link", name="LMS", exact=True).click()
    page.wait_for_selector("#lti-scores .score-sent")
    assert "0.00 / 1" in page.locator("#lti-scores").inner_text()
    screenshot(page, "lti-course-scores")
