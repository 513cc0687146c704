"""An author names a cluster of students' shared mistake, the checks pass, the author publishes it, and the next
student is told."""

from __future__ import annotations

import re
import time

import pytest

from judge.problems.models import GateRun
from judge.submissions.models import Status, Submission
from judge.submissions.services.intake import submit_solution
from tests.browser.conftest import PASSWORD, log_in, open_problem, replace_code, screenshot, sign_up, submit_and_wait

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# A draft saved from the browser must name existing prerequisites.
SYNCED_PROBLEMS = ["patch_embedding", "prepend_class_token"]
SLUG = "prepend_class_token"
MISTAKES = [
    "import numpy as np\n\n# by Grace Hopper\ndef prepend_class_token(patches, cls_token):\n    return patches + cls_token\n",
    "import numpy as np\n\n\ndef prepend_class_token(patches, cls_token):\n    return np.add(cls_token, patches)\n",
]
NAME = "Token added to every patch instead of prepended"
EXPLANATION = "Adding broadcasts the token over the patches; prepending makes a new position in front of them."
GATE_TIMEOUT_S = 120


def wait_until_graded(ids: list[int], timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    while Submission.objects.filter(pk__in=ids, status=Status.DONE).count() < len(ids):
        assert time.monotonic() < deadline, "the worker did not grade the class's submissions"
        time.sleep(0.3)


def test_a_mined_cluster_promoted_to_a_misconception_is_then_shown_to_a_student(
    site, page, chromium, problems, django_user_model
):
    problem = problems[SLUG]
    ids = [
        submit_solution(django_user_model.objects.create_user(f"pupil{i}", password=PASSWORD), problem, code).pk
        for i, code in enumerate(MISTAKES)
    ]
    wait_until_graded(ids)

    django_user_model.objects.create_user("author", password=PASSWORD, is_staff=True)
    log_in(page, site, "author")
    page.goto(f"{site}/authoring/problems/{SLUG}/")
    page.click("#mining-link")
    page.wait_for_url(re.compile(f"/authoring/problems/{SLUG}/mining/$"))
    assert "explain 0 of 2" in page.inner_text("#coverage")
    cluster = page.locator("section.cluster").first
    assert cluster.get_attribute("data-students") == "2"
    assert "patches" in cluster.locator("pre.sample-code").inner_text()
    assert "Grace" not in cluster.inner_text()
    screenshot(page, "mining-cluster")
    cluster.get_by_label("Name of the misconception").fill(NAME)
    cluster.get_by_label("Explanation").fill(EXPLANATION)
    cluster.get_by_role("button", name="Name this misconception").click()

    page.wait_for_url(re.compile(f"/authoring/problems/{SLUG}/$"))
    run = GateRun.objects.filter(problem__slug=SLUG).latest("pk")
    page.wait_for_selector(f"#gate-run-{run.pk}[data-status=done]", timeout=GATE_TIMEOUT_S * 1000)
    assert page.get_attribute(f"#gate-run-{run.pk}", "data-passed") == "true", page.inner_text(f"#gate-run-{run.pk}")
    checked = page.locator(f"#gate-run-{run.pk} li.gate-check[data-check=wrong]").text_content()
    assert "ok  wrong/token_added_to_every_patch_instead_of_prepended.py" in checked
    page.click("#review-publish")
    assert page.locator('details.file-diff[data-file="problem.toml"] .add').first.is_visible()
    page.click("#publish")
    page.wait_for_url(re.compile(f"/authoring/problems/{SLUG}/$"))

    student = chromium.new_context().new_page()
    sign_up(student, site)
    open_problem(student, site, SLUG)
    replace_code(student, MISTAKES[0])
    submit_and_wait(student)
    note = student.locator("#result .misconception")
    assert note.count() == 1
    assert f"Looks like a known mistake: {NAME}" in note.inner_text() and EXPLANATION in note.inner_text()
    screenshot(student, "mined-misconception-shown")
    student.context.close()
