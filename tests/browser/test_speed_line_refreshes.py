"""The page of an accepted Submit says "being measured" and then shows the figure by itself, without a reload."""

from __future__ import annotations

import pytest

from engine.verdicts import Verdict
from judge.submissions.models import Kind, Status, Submission
from tests.browser.conftest import PASSWORD, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "prepend_class_token"


def test_the_speed_figure_appears_without_a_reload(live_server, problems, page, django_user_model, settings):
    settings.MEASURE_SPEED = True
    student = django_user_model.objects.create_user("quick", password=PASSWORD)
    problem = problems[SLUG]
    submission = Submission.objects.create(
        user=student,
        problem=problem,
        kind=Kind.SUBMIT,
        code="x = 1\n",
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
        test_set=problem.current_test_set,
    )
    log_in(page, live_server.url, "quick")
    page.goto(f"{live_server.url}/submissions/{submission.pk}/")
    page.wait_for_selector("#speed:has-text('being measured')")
    page.evaluate("document.body.dataset.sameDocument = '1'")

    Submission.objects.filter(pk=submission.pk).update(speed={"ratio": 1.3, "vectorised": True})  # the worker's
    page.wait_for_selector("#speed:has-text('1.3')", timeout=15_000)
    assert "the reference's CPU time" in page.inner_text("#speed")
    assert page.evaluate("document.body.dataset.sameDocument") == "1"  # no reload happened
    assert page.get_attribute("#speed", "hx-get") is None  # and it stops asking
