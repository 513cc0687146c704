"""greedy_decode in a real browser: a student solves gpt_next_token_logits with their own code, then decodes with it.

The decoding loop imports the student's accepted GPT (``from solved import gpt_next_token_logits``); once it is
accepted, the visible trained-model example draws the decoded ids beside the expected ones.
"""

from __future__ import annotations

import re
import shutil

import pytest

from judge.authoring.sync import sync_problems
from judge.problems.models import Problem
from tests.browser.conftest import open_problem, replace_code, screenshot, sign_up, submit_and_wait
from tests.browser.test_building_on_your_own_code import with_prerequisites
from tests.conftest import PROBLEMS, read_solution
from tests.students import graded

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The student's own GPT: their layer norm, attention and stack written again, math.erf entry by entry.
OWN_GPT = """import math

import numpy as np


def norm(x, gamma, beta):
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-5) * gamma + beta


def gpt_next_token_logits(token_ids, w_token_embed, w_pos_embed, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o,
                          ln2_gamma, ln2_beta, w1, b1, w2, b2, ln_gamma, ln_beta, w_unembed, n_heads):
    ids = token_ids.astype(np.int64)
    b, n = ids.shape
    s = w_token_embed[ids] + w_pos_embed[:n]
    d = s.shape[-1] // n_heads
    erf = np.vectorize(math.erf)
    for l in range(len(w_q)):
        u = norm(s, ln1_gamma[l], ln1_beta[l])
        q, k, v = [(u @ w[l]).reshape(b, n, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v)]
        a = np.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(d) + np.triu(np.full((n, n), -np.inf), 1)
        a = np.exp(a - a.max(-1, keepdims=True))
        a = a / a.sum(-1, keepdims=True)
        s = s + np.einsum("bhij,bhjd->bihd", a, v).reshape(b, n, n_heads * d) @ w_o[l]
        z = norm(s, ln2_gamma[l], ln2_beta[l]) @ w1[l] + b1[l]
        s = s + 0.5 * z * (1 + erf(z / math.sqrt(2))) @ w2[l] + b2[l]
    return norm(s[:, -1], ln_gamma, ln_beta) @ w_unembed
"""

DECODE = """import numpy as np
from solved import gpt_next_token_logits

WEIGHTS = ["w_token_embed", "w_pos_embed", "ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o",
           "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2", "ln_gamma", "ln_beta", "w_unembed"]


def greedy_decode(prompt_ids, params, n_heads, n_new):
    ids = prompt_ids.copy()
    for _ in range(n_new):
        logits = gpt_next_token_logits(ids.astype(np.float64), *[params[w] for w in WEIGHTS], n_heads)
        ids = np.concatenate([ids, np.argmax(logits, axis=-1)[:, None]], axis=1)
    return ids
"""


@pytest.fixture
def decode_site(live_server, grading_worker, tmp_path, process_sandbox):
    """The live server with greedy_decode and what it needs published (nothing else), and a worker grading."""
    for slug in with_prerequisites("greedy_decode"):
        shutil.copytree(PROBLEMS / slug, tmp_path / slug)
    outcomes = sync_problems(tmp_path, sandbox=process_sandbox)
    assert all(o.action == "created" for o in outcomes), [(o.slug, o.action, o.note) for o in outcomes]
    return live_server.url


def drawn_ids(page, test: str, row: str) -> list[list[int]]:
    """The ids the decoded-tokens picture of ``test`` draws in its ``row`` ("expected" or "yours"), per sequence."""
    texts = page.locator(
        f'#result li.test[data-test="{test}"] svg.decoded-tokens g.token.{row} text'
    ).all_text_contents()
    ids = [int(t) for t in texts]
    return [ids[:12], ids[12:]]


def test_a_student_decodes_with_their_own_gpt_and_sees_the_tokens_beside_the_expected_ones(decode_site, page):
    username = sign_up(page, decode_site)
    student = Problem.objects.model._meta.apps.get_model("auth", "User").objects.get(username=username)
    problems = {p.slug: p for p in Problem.objects.filter(slug__in=["transformer_stack", "layer_norm"])}
    for minute, slug in enumerate(problems):  # what gpt_next_token_logits builds on, solved earlier
        graded(student, problems[slug], code=read_solution(slug), minute=minute)

    open_problem(page, decode_site, "greedy_decode")  # locked until the student's GPT is accepted
    assert page.inner_text("#builds-on h2") == "Locked: solve what it builds on first"
    assert page.locator("#submit-button").is_disabled()

    open_problem(page, decode_site, "gpt_next_token_logits")
    replace_code(page, OWN_GPT)
    assert submit_and_wait(page).query_selector("#verdict").inner_text() == "Accepted"
    gpt = Problem.objects.get(slug="gpt_next_token_logits").submissions.filter(user=student).latest("pk")

    open_problem(page, decode_site, "greedy_decode")
    assert page.inner_text("#builds-on h2") == "Built from your own code"
    assert f"your accepted solution #{gpt.pk} of gpt_next_token_logits" in page.inner_text("#builds-on")
    replace_code(page, DECODE)
    panel = submit_and_wait(page)
    assert panel.query_selector("#verdict").inner_text() == "Accepted"
    used = page.inner_text("#result .built-on")  # the GPT, and what it was built on in turn
    assert used.startswith("Graded with your accepted")
    assert used.endswith(f"#{gpt.pk} of gpt_next_token_logits as solved.")

    page.get_by_text(re.compile(r"Show the \d+ passed tests")).click()
    example = page.locator('#result li.test[data-test="example_2_trained_model"]')
    example.locator("svg.decoded-tokens").wait_for(state="visible")
    continuation = [[2, 6, 2, 1, 2, 6, 2, 1, 2, 6, 2, 1], [6, 4, 5, 5, 6, 4, 5, 5, 6, 4, 5, 5]]
    assert drawn_ids(page, "example_2_trained_model", "expected") == continuation
    assert drawn_ids(page, "example_2_trained_model", "yours") == continuation
    assert example.locator(".sequence-label").all_text_contents() == [
        "sequence 0: all generated ids match",
        "sequence 1: all generated ids match",
    ]
    # Hidden tests bring no ids to the page.
    assert page.locator("#result li.test.hidden-test svg").count() == 0
    screenshot(page, "greedy-decode-with-own-gpt")
