"""pre_ln_block in a real browser: built from the student's own accepted layer_norm, attention and feed-forward."""

from __future__ import annotations

import re
import shutil

import pytest

from judge.authoring.sync import sync_problems
from judge.problems.models import Problem
from tests.browser.conftest import open_problem, replace_code, screenshot, sign_up, submit_and_wait
from tests.conftest import PROBLEMS, read_solution
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "pre_ln_block"
BUILT_ON = ["layer_norm", "multi_head_attention", "feed_forward"]
# The block, assembled from the student's own functions.
ASSEMBLED = """import numpy as np
from solved import layer_norm, multi_head_attention
from solved import feed_forward


def pre_ln_block(x, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads, causal):
    length = x.shape[-2]
    mask = np.triu(np.full((length, length), -np.inf), k=1) if causal else None
    h = x + multi_head_attention(layer_norm(x, ln1_gamma, ln1_beta, 1e-5), w_q, w_k, w_v, w_o, n_heads, mask)
    return h + feed_forward(layer_norm(h, ln2_gamma, ln2_beta, 1e-5), w1, b1, w2, b2)
"""


def with_prerequisites(slug: str, found: set[str] | None = None) -> set[str]:
    """``slug`` and every problem it needs first, from the manifests (prerequisites include builds_on)."""
    from engine.package import load_package

    found = set() if found is None else found
    if slug not in found:
        found.add(slug)
        for needed in load_package(PROBLEMS / slug).prerequisites:
            with_prerequisites(needed, found)
    return found


@pytest.fixture
def block_site(live_server, grading_worker, tmp_path, process_sandbox):
    """The live server with pre_ln_block and what it needs published (and nothing else, so a package
    someone is still writing cannot break it), and a worker grading."""
    for slug in with_prerequisites(SLUG):
        shutil.copytree(PROBLEMS / slug, tmp_path / slug)
    outcomes = sync_problems(tmp_path, sandbox=process_sandbox)
    assert all(o.action == "created" for o in outcomes), [(o.slug, o.action, o.note) for o in outcomes]
    return live_server.url


def test_a_student_who_solved_the_parts_sees_them_used_and_is_accepted_with_the_assembled_block(block_site, page):
    username = sign_up(page, block_site)
    student = Problem.objects.model._meta.apps.get_model("auth", "User").objects.get(username=username)
    problems = {p.slug: p for p in Problem.objects.filter(slug__in=BUILT_ON)}
    solutions = {
        slug: graded(student, problems[slug], code=read_solution(slug), minute=i) for i, slug in enumerate(BUILT_ON[:2])
    }

    open_problem(page, block_site, SLUG)  # feed_forward not solved yet: locked, with a link to it
    assert page.inner_text("#builds-on h2") == "Locked: solve what it builds on first"
    assert (
        page.locator("#builds-on li.unsolved a", has_text="feed_forward").get_attribute("href")
        == "/problems/feed_forward/"
    )
    assert page.locator("#submit-button").is_disabled() and page.locator("#run-button").is_disabled()
    screenshot(page, "builds-on-locked")

    solutions["feed_forward"] = graded(student, problems["feed_forward"], code=read_solution("feed_forward"), minute=5)
    open_problem(page, block_site, SLUG)
    assert page.inner_text("#builds-on h2") == "Built from your own code"
    listed = page.locator("#builds-on li.solved").all_inner_texts()
    assert [re.sub(r"\s+", " ", text).strip() for text in listed] == [
        f"your accepted solution #{solutions[slug].pk} of {slug}, submitted 5 Jan 2026, 09:0{i if i < 2 else 5}"
        for i, slug in enumerate(BUILT_ON)
    ]
    assert "from solved import layer_norm, multi_head_attention, feed_forward" in page.inner_text("#builds-on")

    replace_code(page, ASSEMBLED)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    assert page.locator("#result li.test.passed").count() >= 10
    used = ", ".join(f"#{solutions[slug].pk} of {slug}" for slug in BUILT_ON)
    assert page.inner_text("#result .built-on") == f"Graded with your accepted {used} as solved."
    screenshot(page, "builds-on-accepted")
