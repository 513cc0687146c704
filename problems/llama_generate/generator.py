"""Deterministic test cases for llama_generate.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random state.
``prompt_ids`` is int64 (B, L) (kind "int_array"), ``params`` a dict of llama_next_token_logits' weights (kind
"params"), ``n_heads``, ``n_kv_heads`` and ``n_new`` ints, ``eps``, ``temperature`` and ``top_p`` floats,
``uniforms`` float64 (B, n_new).

Every drawn token must be the same for any correct order of the sums, so each case is decoded here step by
step (a whole pass per step, no cache): no uniform is left within 1e-9 of a cumulative probability (one that
is, is moved to the middle of the most likely token's interval, which decides the token by a wide margin),
and no probability mass ranked above a token lies within 1e-9 of top_p (a model for which one does is drawn
again). Exact zeros are exact everywhere (a dropped token's probability, a uniform of 0.0).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

KEYS = ("tok_embed", "attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down", "norm",
        "w_out")
MARGIN = 1e-9


class NearEdge(Exception):
    """top_p lies within MARGIN of a token's mass ranked above it: rounding could decide the nucleus."""


def _case(name: str, hidden: bool, prompt_ids, params: dict, n_heads: int, n_kv_heads: int, eps: float,
          n_new: int, temperature: float, top_p: float, uniforms, probe: bool = False) -> dict:
    prompt = np.ascontiguousarray(prompt_ids, dtype=np.int64)
    args = {"prompt_ids": prompt,
            "params": {key: np.ascontiguousarray(params[key], dtype=np.float64) for key in KEYS},
            "n_heads": int(n_heads), "n_kv_heads": int(n_kv_heads), "eps": float(eps), "n_new": int(n_new),
            "temperature": float(temperature), "top_p": float(top_p),
            "uniforms": np.ascontiguousarray(uniforms, dtype=np.float64).reshape(prompt.shape[0], n_new)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": [prompt.shape[0], prompt.shape[1] + n_new]}
    return case | {"probe": True} if probe else case


def _model(rng: np.random.Generator, layers: int, vocab: int, width: int, n_heads: int, n_kv_heads: int, d: int,
           hidden: int) -> dict:
    def matrix(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape) / np.sqrt(shape[-2])

    def gain(*shape: int) -> np.ndarray:
        return 1.0 + 0.2 * rng.standard_normal(shape)

    return {"tok_embed": rng.standard_normal((vocab, width)), "attn_norm": gain(layers, width),
            "w_q": matrix(layers, width, n_heads * d), "w_k": matrix(layers, width, n_kv_heads * d),
            "w_v": matrix(layers, width, n_kv_heads * d), "w_o": matrix(layers, n_heads * d, width),
            "ffn_norm": gain(layers, width), "w_gate": matrix(layers, width, hidden),
            "w_up": matrix(layers, width, hidden), "w_down": matrix(layers, hidden, width), "norm": gain(width),
            "w_out": matrix(width, vocab)}


# The model over a whole sequence, without a cache, and the draw: only to keep each case away from rounding.
def _rms(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def _rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    d = x.shape[-1]
    angles = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty(x.shape)
    out[..., 0::2] = x[..., 0::2] * np.cos(angles) - x[..., 1::2] * np.sin(angles)
    out[..., 1::2] = x[..., 0::2] * np.sin(angles) + x[..., 1::2] * np.cos(angles)
    return out


def _logits(ids: np.ndarray, p: dict, n_heads: int, n_kv_heads: int, eps: float) -> np.ndarray:
    batch, length = ids.shape
    positions = np.arange(length)
    s = p["tok_embed"][ids]
    for i in range(p["w_q"].shape[0]):
        u = _rms(s, p["attn_norm"][i], eps)
        q, k, v = ((u @ p[w][i]).reshape(batch, length, n, -1).transpose(0, 2, 1, 3)
                   for w, n in (("w_q", n_heads), ("w_k", n_kv_heads), ("w_v", n_kv_heads)))
        q, k = _rope(q, positions), _rope(k, positions)
        k, v = np.repeat(k, n_heads // n_kv_heads, axis=1), np.repeat(v, n_heads // n_kv_heads, axis=1)
        scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + np.triu(np.full((length, length), -np.inf), 1)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        heads = (weights / weights.sum(axis=-1, keepdims=True)) @ v
        h = s + heads.transpose(0, 2, 1, 3).reshape(batch, length, -1) @ p["w_o"][i]
        u = _rms(h, p["ffn_norm"][i], eps)
        g = u @ p["w_gate"][i]
        s = h + (g / (1.0 + np.exp(-g)) * (u @ p["w_up"][i])) @ p["w_down"][i]
    return _rms(s[:, -1], p["norm"], eps) @ p["w_out"]


def _probabilities(logits: np.ndarray, top_p: float) -> np.ndarray:
    ordered = -np.sort(-logits)
    probs = np.exp(ordered - ordered[0])
    probs /= probs.sum()
    above = np.cumsum(probs) - probs
    if np.any(np.abs(above[1:] - top_p) < MARGIN):
        raise NearEdge
    threshold = ordered[np.sum(above < top_p) - 1]
    kept = np.where(logits >= threshold, np.exp(logits - ordered[0]), 0.0)
    return kept / kept.sum()


def _settle(prompt, model, n_heads, n_kv_heads, eps, n_new, temperature, top_p, uniforms) -> np.ndarray:
    """The uniforms, each moved off any cumulative probability it lies within MARGIN of."""
    uniforms = np.array(uniforms, dtype=np.float64).reshape(prompt.shape[0], n_new)
    ids = np.array(prompt, dtype=np.int64)
    for step in range(n_new):
        logits = _logits(ids, model, n_heads, n_kv_heads, eps) / temperature
        chosen = []
        for row in range(ids.shape[0]):
            probs = _probabilities(logits[row], top_p)
            cumulative = np.cumsum(probs)
            u = uniforms[row, step]
            edges = cumulative[cumulative > 0.0]
            if np.any(np.abs(edges - u) < MARGIN) or u > cumulative[-1] - MARGIN:
                best = int(np.argmax(probs))
                u = uniforms[row, step] = cumulative[best] - probs[best] / 2
            chosen.append(int(np.argmax(cumulative > u)))
        ids = np.concatenate([ids, np.array(chosen, dtype=np.int64)[:, None]], axis=1)
    return uniforms


def _random(rng: np.random.Generator, batch: int, length: int, n_new: int, layers: int, vocab: int, width: int,
            n_heads: int, n_kv_heads: int, d: int, hidden: int, temperature: float, top_p: float,
            eps: float = 1e-5) -> tuple:
    while True:
        model = _model(rng, layers, vocab, width, n_heads, n_kv_heads, d, hidden)
        prompt = rng.integers(0, vocab, size=(batch, length))
        uniforms = rng.random((batch, n_new))
        try:
            uniforms = _settle(prompt, model, n_heads, n_kv_heads, eps, n_new, temperature, top_p, uniforms)
        except NearEdge:
            continue
        return prompt, model, n_heads, n_kv_heads, eps, n_new, temperature, top_p, uniforms


def _given() -> dict:
    # statement.md: V = 4, D = 2, one layer of one head of width 2, F = 2.
    eye = np.eye(2)[None]
    return {"tok_embed": np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]),
            "attn_norm": np.ones((1, 2)), "w_q": eye, "w_k": eye, "w_v": eye, "w_o": eye,
            "ffn_norm": np.ones((1, 2)), "w_gate": eye, "w_up": eye, "w_down": 0.5 * eye,
            "norm": np.ones(2), "w_out": np.array([[1.0, 0.5, -1.0, 0.0], [0.0, 1.0, 0.5, -1.0]])}


def _tied(rng: np.random.Generator, batch: int, length: int, n_new: int, top_p: float) -> tuple:
    """Exact ties: tokens 1 and 3 have all-zero columns of w_out, tokens 2 and 4 identical ones, and only
    feature 0 of the final norm reaches the head, so tied tokens have bit-identical logits."""
    while True:
        model = _model(rng, 2, 5, 8, 2, 1, 4, 16)
        model["norm"] = np.zeros(8)
        model["norm"][0] = 1.0
        model["w_out"] = np.zeros((8, 5))
        model["w_out"][0] = [-1.0, 0.0, -2.0, 0.0, -2.0]
        prompt = rng.integers(0, 5, size=(batch, length))
        try:
            uniforms = _settle(prompt, model, 2, 1, 1e-5, n_new, 1.0, top_p, rng.random((batch, n_new)))
        except NearEdge:
            continue
        return prompt, model, 2, 1, 1e-5, n_new, 1.0, top_p, uniforms


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the model given in statement.md, and two prompts through a random two-layer model.
    given = (np.array([[0, 1]]), _given(), 1, 1, 1e-5, 5, 1.0, 0.9)
    yield _case("example_given_model", False, *given, _settle(*given, [0.1, 0.5, 0.9, 0.3, 0.7]))
    yield _case("example_two_prompts", False, *_random(rng, 2, 3, 4, 2, 9, 8, 2, 1, 4, 16, 0.8, 0.95))

    # Hidden cases (the judge runs them smallest first).
    yield _case("plain_sampling_top_p_one", True, *_random(rng, 2, 4, 6, 2, 11, 16, 4, 2, 4, 24, 1.0, 1.0))
    # A nucleus of one token: greedy decoding's tokens, whatever the uniforms.
    yield _case("nucleus_of_one_is_greedy", True, *_random(rng, 2, 4, 6, 2, 11, 16, 4, 2, 4, 24, 1.0, 1e-12))
    yield _case("low_temperature", True, *_random(rng, 2, 3, 6, 2, 13, 16, 4, 2, 4, 24, 0.05, 0.9))
    yield _case("high_temperature", True, *_random(rng, 2, 3, 6, 2, 13, 16, 4, 2, 4, 24, 5.0, 0.9))
    yield _case("no_new_tokens", True, *_random(rng, 2, 5, 0, 2, 9, 8, 2, 1, 4, 16, 1.0, 0.9))
    yield _case("one_new_token", True, *_random(rng, 3, 4, 1, 2, 9, 8, 2, 1, 4, 16, 0.7, 0.8))
    # Uniforms of 0.0 take the first id with a probability above 0, skipping the dropped ones.
    prompt, model, *rest, uniforms = _random(rng, 2, 3, 5, 2, 10, 8, 2, 1, 4, 16, 1.0, 0.6)
    yield _case("uniforms_of_zero", True, prompt, model, *rest, _settle(prompt, model, *rest, np.zeros_like(uniforms)))
    yield _case("ties_at_the_edge_of_the_nucleus", True, *_tied(rng, 3, 3, 8, 0.3))
    yield _case("one_kv_head_for_four", True, *_random(rng, 2, 4, 6, 2, 13, 16, 4, 1, 4, 24, 0.9, 0.9))
    yield _case("batch_of_four", True, *_random(rng, 4, 3, 6, 2, 6, 8, 2, 1, 4, 16, 1.2, 0.7))
    yield _case("vocabulary_of_one", True, *_random(rng, 2, 3, 4, 2, 1, 8, 2, 1, 4, 16, 1.0, 0.9))
    yield _case("four_layers", True, *_random(rng, 2, 6, 8, 4, 17, 16, 4, 2, 4, 40, 0.8, 0.9))
    # Llama's proportions, shrunk: 8 heads over 2, a 512-token vocabulary; 16 tokens and 16 more.
    yield _case("llama_proportions", True, *_random(rng, 1, 16, 16, 2, 512, 64, 8, 2, 8, 172, 0.7, 0.9))

    # Probe inputs (never graded): three sequences and three steps; the second case changes the uniforms of
    # sequences 1 and 2 only, so sequence 0 must come out the same.
    base = _random(rng, 3, 4, 3, 2, 13, 16, 4, 2, 4, 24, 1.0, 0.95)
    yield _case("probe_uniforms_base", True, *base, probe=True)
    changed = base[-1].copy()
    changed[1:] = 1.0 - changed[1:]
    yield _case("probe_other_rows_uniforms_changed", True, *base[:-1], _settle(*base[:2], *base[2:-1], changed),
                probe=True)
