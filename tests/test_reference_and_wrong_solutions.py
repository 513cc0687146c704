"""Every packaged problem: the reference passes, the starter and known-wrong solutions fail as declared.

Each problem goes through its publish gate once in the test run (in the process sandbox, tests/gates.py); the
assertions read the runs the gate made (tests/recording.py) rather than grading the same code again.  A
problem's tests share one xdist group; a worker that synced the problem first has already run its gate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from engine.checks import DIAGNOSABLE
from engine.probes import evaluate_probes
from tests.conftest import PROBLEMS
from tests.helpers import first_failure, package
from tests.recording import GatedProblem

pytestmark = pytest.mark.catalogue

SLUGS = sorted(p.name for p in PROBLEMS.iterdir() if (p / "problem.toml").exists())
WRONG = [(slug, wrong) for slug in SLUGS for wrong in package(slug).wrong]
PROBED = [(slug, wrong) for slug, wrong in WRONG if wrong.probes]
# Every declared status is diagnosable (engine/checks.py DIAGNOSABLE): a run killed by the memory or time limit
# matches a known-wrong solution killed the same way on the same test.
DIAGNOSED = [(slug, wrong) for slug, wrong in WRONG if wrong.fails_with in DIAGNOSABLE]


def per_problem(slug: str, *rest, id: str | None = None):
    return pytest.param(slug, *rest, id=id or slug, marks=pytest.mark.xdist_group(f"gate-{slug}"))


def by_problem(pairs):
    return [per_problem(slug, wrong, id=f"{slug}/{wrong.file}") for slug, wrong in pairs]


@pytest.fixture(scope="module")
def gated(gate_store) -> Callable[[str], GatedProblem]:
    """slug -> the problem's gate, run once in this test run."""
    return gate_store.gated


def without_known_wrong(gate: GatedProblem):
    """The cases as a fresh build gives them, before the gate records what the known-wrong solutions did."""
    return [dataclasses.replace(case, known_wrong=()) for case in gate.outcome.cases]


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in SLUGS])
def test_reference_solution_is_accepted(slug, gated):
    report = gated(slug).report(package(slug).solution, without_known_wrong(gated(slug)))
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]
    assert all(
        t.checks == dict.fromkeys(["type", "dtype", "shape", "values", "inputs"], "passed") for t in report.tests
    )


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in SLUGS])
def test_starter_code_is_not_accepted(slug, gated):
    assert gated(slug).report(package(slug).starter, without_known_wrong(gated(slug))).verdict != "accepted"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_problem_has_at_least_three_known_wrong_solutions(slug):
    assert len(package(slug).wrong) >= 3


@pytest.mark.parametrize(("slug", "wrong"), by_problem(WRONG))
def test_known_wrong_solution_fails_with_its_declared_check(slug, wrong, gated):
    """``fails_with`` is the check one of its failing hidden tests reports (whichever runs first)."""
    report = gated(slug).report(wrong.code, without_known_wrong(gated(slug)))
    assert report.verdict != "accepted"
    failing = {t.status for t in report.tests if t.hidden and t.status != "passed"}
    assert wrong.fails_with in failing, failing


def wrong_report(gated, slug: str, file: str):
    return gated(slug).report((PROBLEMS / slug / file).read_text(), without_known_wrong(gated(slug)))


@pytest.mark.xdist_group("gate-prepend_class_token")
def test_appended_class_token_is_wrong_value(gated):
    report = wrong_report(gated, "prepend_class_token", "wrong/appended.py")
    failure = first_failure(report)
    assert (report.verdict, failure.status) == ("wrong_answer", "wrong_value")
    assert "first mismatch at index (0, 0, 0)" in failure.message


@pytest.mark.xdist_group("gate-prepend_class_token")
def test_float32_result_is_wrong_dtype_with_shapes_in_the_message(gated):
    report = wrong_report(gated, "prepend_class_token", "wrong/float32.py")
    assert (
        first_failure(report).message == "expected a float64 array of shape (1, 3, 3), got float32 of shape (1, 3, 3)"
    )


@pytest.mark.xdist_group("gate-scaled_dot_product_attention")
def test_softmax_over_the_wrong_axis_is_wrong_value(gated):
    report = wrong_report(gated, "scaled_dot_product_attention", "wrong/softmax_over_queries.py")
    assert first_failure(report).status == "wrong_value"


@pytest.mark.xdist_group("gate-scaled_dot_product_attention")
def test_naive_softmax_overflows_on_large_scores_and_the_message_says_why(gated):
    report = wrong_report(gated, "scaled_dot_product_attention", "wrong/naive_softmax.py")
    failed = [t for t in report.tests if t.status != "passed"]
    assert failed and all(t.hidden for t in failed)
    assert any("subtract the maximum" in t.message for t in failed)


@pytest.mark.xdist_group("gate-add_positional_embedding")
def test_in_place_addition_is_input_mutated(gated):
    failure = first_failure(wrong_report(gated, "add_positional_embedding", "wrong/in_place_add.py"))
    assert failure.status == "input_mutated"
    assert "`tokens`" in failure.message


@pytest.mark.xdist_group("gate-flash_attention")
def test_full_attention_matrix_runs_out_of_memory_on_the_long_test_only(gated):
    report = wrong_report(gated, "flash_attention", "wrong/full_score_matrix.py")
    failed = [(t.name, t.status) for t in report.tests if t.status != "passed"]
    assert failed == [("long_sequence_3072", "memory_limit_exceeded")]


@pytest.mark.xdist_group("gate-grouped_query_attention")
def test_round_robin_key_value_heads_are_wrong_on_the_grouping_example(gated):
    report = wrong_report(gated, "grouped_query_attention", "wrong/heads_interleaved.py")
    example = next(t for t in report.tests if t.name == "example_two_groups")
    assert example.status == "wrong_value"


@pytest.mark.xdist_group("gate-top_k_logits")
def test_exactly_k_survivors_fail_where_logits_tie_at_the_kth_value(gated):
    report = wrong_report(gated, "top_k_logits", "wrong/exactly_k_by_argsort.py")
    statuses = {t.name: t.status for t in report.tests}
    assert statuses["ties_at_kth"] == statuses["repeated_maximum_k1"] == "wrong_value"
    assert statuses["k_one"] == statuses["gpt2_vocab_k50"] == "passed"


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in SLUGS])
def test_every_problem_passes_the_publish_gate(slug, gated):
    outcome = gated(slug).outcome
    failure = outcome.first_failure()
    assert outcome.passed, f"{failure.key}: {failure.detail}" if failure else "a check did not run"


@pytest.mark.parametrize(("slug", "wrong"), by_problem(DIAGNOSED))
def test_known_wrong_solution_is_shown_its_named_misconception(slug, wrong, gated):
    report = gated(slug).report(wrong.code)
    named = {t.misconception.get("name") for t in report.tests if t.status != "passed"}
    assert wrong.name in named, (named, [(t.name, t.status) for t in report.tests if t.status != "passed"])


@pytest.mark.parametrize(("slug", "wrong"), by_problem(PROBED))
def test_probes_fire_for_the_seeded_wrong_solutions_that_declare_them(slug, wrong, gated):
    report = gated(slug).report(wrong.code)
    assert set(wrong.probes) <= {p["name"] for p in report.properties}
    assert all(p["message"] and "{index}" not in p["message"] for p in report.properties)


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in sorted({slug for slug, _ in PROBED})])
def test_the_reference_breaks_no_probe(slug, gated):
    gate = gated(slug)
    events = gate.events_by_case(package(slug).solution)
    cases = gate.outcome.cases
    assert evaluate_probes(package(slug).spec(), [c for c in cases if c.probe], events) == []


# A student's pre_ln_block_backward: the forward written again (einsum attention, math.erf entry by
# entry), the backward entirely from their own accepted pieces. The gate's `solved` holds the references.
BLOCK_BACKWARD_FROM_OWN_PIECES = """
import math

import numpy as np
from solved import feed_forward_backward, layer_norm_affine_backward, multi_head_attention_backward


def layer_norm(u, gamma, beta):
    mean = u.mean(axis=-1, keepdims=True)
    return (u - mean) / np.sqrt(((u - mean) ** 2).mean(axis=-1, keepdims=True) + 1e-5) * gamma + beta


def attention(u, p, n_heads, mask):
    b, l, d = u.shape
    split = lambda t: t.reshape(b, l, n_heads, d // n_heads).transpose(0, 2, 1, 3)
    q, k, v = split(u @ p["w_q"]), split(u @ p["w_k"]), split(u @ p["w_v"])
    s = np.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(d // n_heads) + mask
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.einsum("bhij,bhjd->bhid", w, v).transpose(0, 2, 1, 3).reshape(b, l, d) @ p["w_o"]


def pre_ln_block_backward(x, params, n_heads, causal, grad_out):
    p, length = params, x.shape[1]
    mask = np.where(np.tri(length, dtype=bool), 0.0, -np.inf) if causal else np.zeros((length, length))
    u1 = layer_norm(x, p["ln1_gamma"], p["ln1_beta"])
    h = x + attention(u1, p, n_heads, mask)
    u2 = layer_norm(h, p["ln2_gamma"], p["ln2_beta"])
    du2, dw1, db1, dw2, db2 = feed_forward_backward(u2, p["w1"], p["b1"], p["w2"], p["b2"], grad_out)
    dh, dg2, dbeta2 = layer_norm_affine_backward(h, p["ln2_gamma"], du2, 1e-5)
    dh = dh + grad_out
    a = multi_head_attention_backward(u1, p["w_q"], p["w_k"], p["w_v"], p["w_o"], n_heads, mask, dh)
    dx, dg1, dbeta1 = layer_norm_affine_backward(x, p["ln1_gamma"], a["x"], 1e-5)
    return {"x": dx + dh, "ln1_gamma": dg1, "ln1_beta": dbeta1, "w_q": a["w_q"], "w_k": a["w_k"],
            "w_v": a["w_v"], "w_o": a["w_o"], "ln2_gamma": dg2, "ln2_beta": dbeta2,
            "w1": dw1, "b1": db1, "w2": dw2, "b2": db2}
"""


@pytest.mark.xdist_group("gate-pre_ln_block_backward")
def test_a_block_backward_built_from_the_students_own_backward_pieces_is_accepted(gated):
    report = gated("pre_ln_block_backward").grade(BLOCK_BACKWARD_FROM_OWN_PIECES)
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]


@pytest.mark.xdist_group("gate-pre_ln_block_backward")
def test_a_dropped_residual_path_is_reported_on_the_input_gradient_by_name(gated):
    report = wrong_report(gated, "pre_ln_block_backward", "wrong/residual_gradient_into_x_dropped.py")
    assert first_failure(report).message.startswith("x: ")


@pytest.mark.xdist_group("gate-pre_ln_block_backward")
def test_a_block_backward_without_the_input_gradient_is_told_the_missing_key(gated):
    report = wrong_report(gated, "pre_ln_block_backward", "wrong/input_gradient_left_out.py")
    failure = first_failure(report)
    assert failure.status == "wrong_type"
    assert "lacks the key 'x'" in failure.message


@pytest.mark.xdist_group("gate-greedy_decode")
def test_ties_broken_towards_the_highest_id_fail_only_where_two_tokens_tie(gated):
    report = wrong_report(gated, "greedy_decode", "wrong/ties_to_the_highest_id.py")
    failed = [(t.name, t.status) for t in report.tests if t.status != "passed"]
    assert failed == [("ties_go_to_the_lowest_id", "wrong_value")]


@pytest.mark.xdist_group("gate-greedy_decode")
def test_float_ids_are_told_to_return_int64_on_the_visible_example(gated):
    failure = first_failure(wrong_report(gated, "greedy_decode", "wrong/ids_kept_as_floats.py"))
    assert failure.status == "wrong_dtype"
    assert failure.message == (
        "expected an int64 array of shape (1, 5), got float64 of shape (1, 5); "
        "ids and indices are integers: return them with .astype(np.int64)"
    )


# A student's greedy_decode: the loop around their own accepted gpt_next_token_logits (the gate's
# `solved` holds its reference), which takes float64 ids.
GREEDY_FROM_OWN_GPT = """
import numpy as np
from solved import gpt_next_token_logits

ORDER = ["w_token_embed", "w_pos_embed", "ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma",
         "ln2_beta", "w1", "b1", "w2", "b2", "ln_gamma", "ln_beta", "w_unembed"]


def greedy_decode(prompt_ids, params, n_heads, n_new):
    ids = prompt_ids
    for _ in range(n_new):
        logits = gpt_next_token_logits(ids.astype(np.float64), *[params[name] for name in ORDER], n_heads)
        ids = np.hstack([ids, np.argmax(logits, axis=1).reshape(-1, 1)])
    return ids.copy()
"""


@pytest.mark.xdist_group("gate-greedy_decode")
def test_a_greedy_decode_around_the_students_own_gpt_is_accepted(gated):
    report = gated("greedy_decode").grade(GREEDY_FROM_OWN_GPT)
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]


@pytest.mark.xdist_group("gate-decode_with_kv_cache")
def test_recomputing_the_prefix_runs_out_of_time_on_the_long_test_only(gated):
    report = wrong_report(gated, "decode_with_kv_cache", "wrong/recomputes_the_prefix.py")
    # A time-out stops the run: the tests after it (in the order a Submit runs them) are "not run", not failed.
    failed = [(t.name, t.status) for t in report.tests if t.status not in ("passed", "not_run")]
    assert failed == [("long_generation_600", "time_limit_exceeded")]
    reference = gated("decode_with_kv_cache").report(package("decode_with_kv_cache").solution)
    assert next(t.status for t in reference.tests if t.name == "long_generation_600") == "passed"


@pytest.mark.xdist_group("gate-decode_with_kv_cache")
def test_a_cache_grown_by_concatenation_is_accepted_long_test_included(gated):
    # Another correct way: per-layer (keys, values) grown with np.concatenate at every step, the
    # causal mask shifted by the cache's length, math.erf entry by entry.
    code = (
        (PROBLEMS / "decode_with_kv_cache" / "wrong" / "prefill_without_causal_mask.py")
        .read_text()
        .replace(
            "        # With a cache, every query sees every cached key: no mask needed.\n",
            "        scores = scores + np.triu(np.full((n, k.shape[2]), -np.inf), k=k.shape[2] - n + 1)\n",
        )
    )
    report = gated("decode_with_kv_cache").grade(code)
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]


@pytest.mark.xdist_group("gate-vit_train_steps")
def test_a_vit_trained_by_a_loop_over_the_pieces_it_builds_on_is_accepted(gated):
    from tests.browser.test_training_your_own_vit import ASSEMBLED

    report = gated("vit_train_steps").grade(ASSEMBLED)
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]


@pytest.mark.parametrize("slug", [per_problem("greedy_decode"), per_problem("decode_with_kv_cache")])
def test_gpt2s_tanh_gelu_fails_only_where_the_top_two_logits_are_closer_than_its_error(slug, gated):
    # Issue 41: no hidden case had a top-two gap small enough for the approximation to swap a token.
    report = wrong_report(gated, slug, "wrong/tanh_gelu.py")
    failed = [(t.name, t.status) for t in report.tests if t.status != "passed"]
    assert failed == [("exact_gelu_decides_a_token", "wrong_value")]
