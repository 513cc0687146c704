"""Track 5's model problems: solutions written from the statements alone, assembled from the student's own
earlier pieces (the gate's ``solved`` holds the packaged references), are accepted; the long decoding test
separates a cache from recomputing; and the references agree with each other and with the public formulas the
statements cite.

The gated runs share the problem's xdist group with tests/test_reference_and_wrong_solutions.py, so a worker
gates each problem once.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable

import numpy as np
import pytest

from tests.conftest import PROBLEMS
from tests.recording import GatedProblem

pytestmark = pytest.mark.catalogue


@pytest.fixture(scope="module")
def gated(gate_store) -> Callable[[str], GatedProblem]:
    return gate_store.gated


def accepted(report) -> bool:
    return report.verdict == "accepted"


def failures(report) -> list:
    return [(t.name, t.status, t.message) for t in report.tests if t.status != "passed"]


def reference(slug: str):
    spec = importlib.util.spec_from_file_location(f"reference_{slug}", PROBLEMS / slug / "solution.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, slug)


def cases(slug: str, seed: int = 7) -> dict:
    spec = importlib.util.spec_from_file_location(f"generator_{slug}", PROBLEMS / slug / "generator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {case["name"]: case["args"] for case in module.generate(np.random.default_rng(seed))}


MOE_FROM_OWN_PIECES = """
import numpy as np
from solved import moe_router, swiglu


def mixture_of_experts(x, w_router, w_gate, w_up, w_down, k):
    weights, experts = moe_router(x, w_router, k)
    out = np.zeros(x.shape)
    for t in range(x.shape[0]):
        for j in range(k):
            e = experts[t, j]
            out[t] += weights[t, j] * swiglu(x[t:t + 1], w_gate[e], w_up[e], w_down[e])[0]
    return out
"""


@pytest.mark.xdist_group("gate-mixture_of_experts")
def test_a_mixture_looping_over_tokens_with_the_students_own_router_and_swiglu_is_accepted(gated):
    report = gated("mixture_of_experts").grade(MOE_FROM_OWN_PIECES)
    assert accepted(report), failures(report)


BLOCK_FROM_OWN_PIECES = """
import numpy as np
from solved import apply_rope, grouped_query_attention, rms_norm, swiglu


def llama_block(x, params, n_heads, n_kv_heads, positions, eps):
    b, l, _ = x.shape
    u = rms_norm(x, params["attn_norm"], eps)
    q = (u @ params["w_q"]).reshape(b, l, n_heads, -1).transpose(0, 2, 1, 3)
    k = (u @ params["w_k"]).reshape(b, l, n_kv_heads, -1).transpose(0, 2, 1, 3)
    v = (u @ params["w_v"]).reshape(b, l, n_kv_heads, -1).transpose(0, 2, 1, 3)
    where = positions.astype(np.float64)
    causal = np.where(np.tri(l, dtype=bool), 0.0, -np.inf)
    heads = grouped_query_attention(apply_rope(q, where), apply_rope(k, where), v, causal)
    h = x + heads.transpose(0, 2, 1, 3).reshape(b, l, -1) @ params["w_o"]
    return h + swiglu(rms_norm(h, params["ffn_norm"], eps), params["w_gate"], params["w_up"], params["w_down"])
"""


@pytest.mark.xdist_group("gate-llama_block")
def test_a_llama_block_from_the_students_own_four_pieces_is_accepted(gated):
    report = gated("llama_block").grade(BLOCK_FROM_OWN_PIECES)
    assert accepted(report), failures(report)


LLAMA_FROM_OWN_BLOCK = """
import numpy as np
from solved import llama_block, rms_norm


def llama_next_token_logits(token_ids, params, n_heads, n_kv_heads, eps):
    x = params["tok_embed"][token_ids]
    positions = np.arange(token_ids.shape[1])
    layer_keys = [key for key in params if key not in ("tok_embed", "norm", "w_out")]
    for i in range(len(params["attn_norm"])):
        x = llama_block(x, {key: params[key][i] for key in layer_keys}, n_heads, n_kv_heads, positions, eps)
    return rms_norm(x[:, -1, :], params["norm"], eps) @ params["w_out"]
"""


@pytest.mark.xdist_group("gate-llama_next_token_logits")
def test_a_llama_from_the_students_own_block_is_accepted(gated):
    report = gated("llama_next_token_logits").grade(LLAMA_FROM_OWN_BLOCK)
    assert accepted(report), failures(report)


# A cache of per-layer lists grown with np.concatenate; each step's single query goes through the student's own
# grouped_query_attention against every cached key (no mask), the prompt's rows with a shifted causal mask.
CACHED_DECODER_FROM_OWN_PIECES = """
import numpy as np
from solved import apply_rope, grouped_query_attention, rms_norm, swiglu

BLOCK = ["attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down"]


def run(ids, params, n_heads, n_kv_heads, eps, caches, start):
    b, t = ids.shape
    where = np.arange(start, start + t, dtype=np.float64)
    x = params["tok_embed"][ids]
    for layer, cache in enumerate(caches):
        p = {key: params[key][layer] for key in BLOCK}
        u = rms_norm(x, p["attn_norm"], eps)
        q = apply_rope((u @ p["w_q"]).reshape(b, t, n_heads, -1).transpose(0, 2, 1, 3), where)
        cache["k"].append(apply_rope((u @ p["w_k"]).reshape(b, t, n_kv_heads, -1).transpose(0, 2, 1, 3), where))
        cache["v"].append((u @ p["w_v"]).reshape(b, t, n_kv_heads, -1).transpose(0, 2, 1, 3))
        k, v = np.concatenate(cache["k"], axis=2), np.concatenate(cache["v"], axis=2)
        cache["k"], cache["v"] = [k], [v]
        mask = None if t == 1 else np.triu(np.full((t, start + t), -np.inf), k=start + 1)
        heads = grouped_query_attention(q, k, v, mask)
        h = x + heads.transpose(0, 2, 1, 3).reshape(b, t, -1) @ p["w_o"]
        x = h + swiglu(rms_norm(h, p["ffn_norm"], eps), p["w_gate"], p["w_up"], p["w_down"])
    return rms_norm(x[:, -1], params["norm"], eps) @ params["w_out"]


def llama_decode_with_kv_cache(prompt_ids, params, n_heads, n_kv_heads, eps, n_new):
    ids = prompt_ids.copy()
    caches = [{"k": [], "v": []} for _ in range(params["w_q"].shape[0])]
    if n_new:
        logits = run(ids, params, n_heads, n_kv_heads, eps, caches, 0)
    for step in range(n_new):
        token = np.argmax(logits, axis=1).reshape(-1, 1)
        ids = np.hstack([ids, token])
        if step + 1 < n_new:
            logits = run(token, params, n_heads, n_kv_heads, eps, caches, ids.shape[1] - 1)
    return ids
"""


@pytest.mark.xdist_group("gate-llama_decode_with_kv_cache")
def test_a_cached_llama_decoder_from_the_students_own_pieces_is_accepted_long_test_included(gated):
    report = gated("llama_decode_with_kv_cache").grade(CACHED_DECODER_FROM_OWN_PIECES)
    assert accepted(report), failures(report)


@pytest.mark.xdist_group("gate-llama_decode_with_kv_cache")
def test_recomputing_the_llama_prefix_runs_out_of_time_on_the_long_test_only(gated):
    gate = gated("llama_decode_with_kv_cache")
    report = gate.report((PROBLEMS / "llama_decode_with_kv_cache" / "wrong" / "recomputes_the_prefix.py").read_text())
    # A time-out stops the run: the tests after it (in the order a Submit runs them) are "not run", not failed.
    failed = [(t.name, t.status) for t in report.tests if t.status not in ("passed", "not_run")]
    assert failed == [("long_generation_300", "time_limit_exceeded")]


SAMPLER_FROM_OWN_PIECES = (
    CACHED_DECODER_FROM_OWN_PIECES.replace(
        "from solved import apply_rope, grouped_query_attention, rms_norm, swiglu",
        "from solved import apply_rope, grouped_query_attention, rms_norm, sample_next_token, swiglu, top_p_logits",
    )
    .replace(
        "def llama_decode_with_kv_cache(prompt_ids, params, n_heads, n_kv_heads, eps, n_new):",
        "def llama_generate(prompt_ids, params, n_heads, n_kv_heads, eps, n_new, temperature, top_p, uniforms):",
    )
    .replace(
        "        token = np.argmax(logits, axis=1).reshape(-1, 1)",
        "        kept = top_p_logits(logits / temperature, top_p)\n"
        "        token = sample_next_token(kept, 1.0, uniforms[:, step]).reshape(-1, 1)",
    )
)


@pytest.mark.xdist_group("gate-llama_generate")
def test_a_sampler_from_the_students_own_pieces_top_p_and_draw_is_accepted(gated):
    # The cached loop is the student's decoder with its argmax replaced, from the same pieces, which
    # llama_generate builds on too.
    report = gated("llama_generate").grade(SAMPLER_FROM_OWN_PIECES)
    assert accepted(report), failures(report)


def test_a_nucleus_of_one_samples_the_greedy_decoders_tokens():
    args = cases("llama_generate")["nucleus_of_one_is_greedy"]
    greedy = reference("llama_decode_with_kv_cache")(
        *(args[key] for key in ("prompt_ids", "params", "n_heads", "n_kv_heads", "eps", "n_new"))
    )
    sampled = reference("llama_generate")(**args)
    assert sampled.dtype == np.int64 and np.array_equal(sampled, greedy)


def test_the_given_models_tokens_are_the_ones_the_statement_shows():
    args = cases("llama_generate")["example_given_model"]
    assert reference("llama_generate")(**args).tolist() == [[0, 1, 0, 0, 3, 0, 1]]
    assert "# array([[0, 1, 0, 0, 3, 0, 1]])" in (PROBLEMS / "llama_generate" / "statement.md").read_text()


def test_the_cached_decoder_chooses_what_a_whole_pass_at_every_step_chooses():
    args = cases("llama_decode_with_kv_cache")["four_layers"]
    logits = reference("llama_next_token_logits")
    ids = args["prompt_ids"]
    for _ in range(args["n_new"]):
        step = logits(ids, args["params"], args["n_heads"], args["n_kv_heads"], args["eps"])
        ids = np.concatenate([ids, np.argmax(step, axis=-1)[:, None]], axis=1)
    assert np.array_equal(reference("llama_decode_with_kv_cache")(**args), ids)


def test_the_llama_block_is_the_first_layer_of_the_whole_model():
    # One layer whose output head is the identity on a widened vocabulary reads the block's last row back.
    args = cases("llama_next_token_logits")["example_one_layer"]
    params = dict(args["params"], norm=np.ones(8), w_out=np.eye(8))
    block = {
        key: params[key][0] for key in ("attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down")
    }
    x = params["tok_embed"][args["token_ids"]]
    row = reference("llama_block")(x, block, args["n_heads"], args["n_kv_heads"], np.arange(x.shape[1]), args["eps"])
    expected = row[:, -1] / np.sqrt(np.mean(row[:, -1] ** 2, axis=-1, keepdims=True) + args["eps"])
    assert np.allclose(
        reference("llama_next_token_logits")(
            args["token_ids"], params, args["n_heads"], args["n_kv_heads"], args["eps"]
        ),
        expected,
        rtol=1e-12,
        atol=1e-14,
    )


def test_llama31_frequencies_match_metas_loop_over_the_pairs():
    # Meta's apply_scaling (llama-models), pair by pair, for Llama 3.1's shipped rope_scaling.
    head_dim, base, factor, low, high, old = 128, 500000.0, 8.0, 1.0, 4.0, 8192
    expected = []
    for i in range(0, head_dim, 2):
        freq = 1.0 / base ** (i / head_dim)
        wavelen = 2 * math.pi / freq
        if wavelen < old / high:
            expected.append(freq)
        elif wavelen > old / low:
            expected.append(freq / factor)
        else:
            smooth = (old / wavelen - low) / (high - low)
            expected.append((1 - smooth) * freq / factor + smooth * freq)
    got = reference("llama3_rope_frequencies")(head_dim, base, factor, low, high, old)
    assert np.allclose(got, expected, rtol=1e-12, atol=0.0)


def test_the_load_balancing_loss_is_hugging_faces_divided_by_k():
    # transformers' load_balancing_loss_func averages a (T, k, E) one-hot mask over the tokens, so its shares sum
    # to k; the statement says so, and the two differ by exactly that factor.
    args = cases("moe_load_balancing_loss")["mixtral_shape"]
    logits, k = args["router_logits"], args["k"]
    tokens, experts = logits.shape
    top = np.argsort(-logits, axis=-1, kind="stable")[:, :k]
    mask = np.zeros((tokens, k, experts))
    mask[np.arange(tokens)[:, None], np.arange(k)[None, :], top] = 1.0
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    hugging_face = experts * np.sum(mask.mean(axis=0) * probs.mean(axis=0)[None, :])
    loss = reference("moe_load_balancing_loss")(logits, k)
    assert loss.shape == () and loss.dtype == np.float64
    assert math.isclose(float(loss) * k, hugging_face, rel_tol=1e-12)


def test_latent_attention_equals_its_absorbed_form_over_cached_latents():
    # What the statement promises a decoder: attend over the latents c alone, with w_uk folded into the query and
    # w_uv applied after the weighted sum.
    args = cases("latent_attention")["deepseek_proportions"]
    x, heads = args["x"], args["n_heads"]
    c = x @ args["w_dkv"]
    batch, length, rank = c.shape
    d = args["w_q"].shape[1] // heads
    q = (x @ args["w_q"]).reshape(batch, length, heads, d)
    w_uk = args["w_uk"].reshape(rank, heads, d)
    w_uv = args["w_uv"].reshape(rank, heads, -1)
    q_latent = np.einsum("blhd,rhd->bhlr", q, w_uk)
    scores = q_latent @ c[:, None].swapaxes(-1, -2) / np.sqrt(d) + np.triu(np.full((length, length), -np.inf), 1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    mixed = weights @ c[:, None]  # (B, H, L, r): a weighted sum of latents
    out = np.einsum("bhlr,rhe->blhe", mixed, w_uv).reshape(batch, length, -1) @ args["w_o"]
    assert np.allclose(reference("latent_attention")(**args), out, rtol=1e-10, atol=1e-12)
