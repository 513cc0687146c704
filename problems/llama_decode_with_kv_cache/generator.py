"""Deterministic test cases for llama_decode_with_kv_cache: small ones, exact ties, one long case and two probes.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random state.
``prompt_ids`` is int64 (B, L) (kind "int_array"), ``params`` a dict of llama_next_token_logits' weights by the
same names (kind "params"), ``n_heads``, ``n_kv_heads`` and ``n_new`` ints, ``eps`` a float. Models are drawn at
the scale of a trained one, so the logits are neither flat nor one-hot and the argmax changes with the context.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

KEYS = ("tok_embed", "attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down", "norm",
        "w_out")


def _case(name: str, hidden: bool, prompt_ids, params: dict, n_heads: int, n_kv_heads: int, eps: float,
          n_new: int) -> dict:
    prompt = np.ascontiguousarray(prompt_ids, dtype=np.int64)
    args = {"prompt_ids": prompt,
            "params": {key: np.ascontiguousarray(params[key], dtype=np.float64) for key in KEYS},
            "n_heads": int(n_heads), "n_kv_heads": int(n_kv_heads), "eps": float(eps), "n_new": int(n_new)}
    return {"name": name, "hidden": hidden, "args": args, "shape": [prompt.shape[0], prompt.shape[1] + n_new]}


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


def _random(rng: np.random.Generator, batch: int, length: int, n_new: int, layers: int, vocab: int, width: int,
            n_heads: int, n_kv_heads: int, d: int, hidden: int, eps: float = 1e-5) -> tuple:
    model = _model(rng, layers, vocab, width, n_heads, n_kv_heads, d, hidden)
    return rng.integers(0, vocab, size=(batch, length)), model, n_heads, n_kv_heads, eps, n_new


def _tied(rng: np.random.Generator, batch: int, length: int, n_new: int) -> tuple:
    """A model whose every step is an exact tie. Only feature 0 of the final norm reaches the head: tokens 1
    and 3 have all-zero columns (logit 0.0 however the sums are ordered), tokens 2 and 4 identical columns
    (-2 n_0 for the normalised feature n_0), token 0 gets -n_0. When n_0 > 0 tokens 1 and 3 lead, when n_0 < 0
    tokens 2 and 4 do: the lower id, 1 or 2, must win every tie."""
    prompt, model, *rest = _random(rng, batch, length, n_new, 2, 5, 8, 2, 1, 4, 16)
    model["norm"] = np.zeros(8)
    model["norm"][0] = 1.0
    model["w_out"] = np.zeros((8, 5))
    model["w_out"][0] = [-1.0, 0.0, -2.0, 0.0, -2.0]
    return prompt, model, *rest


# The model over a whole sequence, without a cache: only the probe needs it, to append greedy decoding's first
# token to a prompt.
def _rms(x: np.ndarray, gain: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * gain


def _rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    d = x.shape[-1]
    angles = positions[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty(x.shape)
    out[..., 0::2] = x[..., 0::2] * np.cos(angles) - x[..., 1::2] * np.sin(angles)
    out[..., 1::2] = x[..., 0::2] * np.sin(angles) + x[..., 1::2] * np.cos(angles)
    return out


def _first_token(prompt: np.ndarray, p: dict, n_heads: int, n_kv_heads: int, eps: float) -> np.ndarray:
    batch, length = prompt.shape
    positions = np.arange(length)
    s = p["tok_embed"][prompt]
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
    return np.argmax(_rms(s[:, -1], p["norm"], eps) @ p["w_out"], axis=-1)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: one layer of 2 query heads over 1 key/value head, 4 new tokens; two layers, two prompts.
    yield _case("example_one_layer", False, *_random(rng, 1, 3, 4, 1, 7, 8, 2, 1, 4, 12))
    yield _case("example_two_layers", False, *_random(rng, 2, 4, 5, 2, 9, 8, 2, 1, 4, 16))

    # Hidden cases. The first has two layers, so the causal mask of the prompt's pass matters.
    yield _case("random_small", True, *_random(rng, 2, 4, 5, 2, 11, 16, 4, 2, 4, 24))
    yield _case("ties_go_to_the_lowest_id", True, *_tied(rng, 3, 3, 8))
    yield _case("one_new_token", True, *_random(rng, 2, 5, 1, 2, 9, 8, 2, 1, 4, 16))
    yield _case("no_new_tokens", True, *_random(rng, 2, 5, 0, 2, 9, 8, 2, 1, 4, 16))
    yield _case("prompt_of_one_token", True, *_random(rng, 3, 1, 6, 2, 7, 8, 2, 1, 4, 16))
    yield _case("one_kv_head_for_four", True, *_random(rng, 2, 4, 6, 2, 13, 16, 4, 1, 4, 24))
    yield _case("kv_heads_equal_heads", True, *_random(rng, 2, 4, 6, 2, 13, 16, 2, 2, 8, 24))
    yield _case("batch_of_four", True, *_random(rng, 4, 3, 6, 2, 6, 8, 2, 1, 4, 16))
    yield _case("vocabulary_of_one", True, *_random(rng, 2, 3, 4, 2, 1, 8, 2, 1, 4, 16))
    yield _case("four_layers", True, *_random(rng, 2, 6, 8, 4, 17, 16, 4, 2, 4, 40))
    n_kv = int(rng.integers(1, 3))
    yield _case("random_any_size", True, *_random(
        rng, int(rng.integers(1, 4)), int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 4)),
        int(rng.integers(2, 40)), int(rng.integers(2, 16)), n_kv * int(rng.integers(1, 3)), n_kv,
        2 * int(rng.integers(1, 4)), int(rng.integers(1, 24))))
    # Llama's proportions, shrunk: 8 heads over 2, F about 8/3 D, a 512-token vocabulary; 16 tokens and 16 more.
    yield _case("llama_proportions", True, *_random(rng, 1, 16, 16, 2, 512, 64, 8, 2, 8, 172))

    # The long one: 8 tokens and 300 more, 16 sequences, one layer of 4 query heads over 2 key/value heads of
    # 32, F = 688. With the cache each step is one position; recomputing the prefix costs about 90 times as much
    # (measured on a quiet machine: 0.32 s against 29.8 s of wall time, NumPy on two threads).
    yield _case("long_generation_300", True, *_random(rng, 16, 8, 300, 1, 256, 128, 4, 2, 32, 688))

    # Probe: twelve tokens after a prompt, and eleven after the same prompt with greedy decoding's first token
    # already appended. Both are the same 18 tokens when a cached step computes what a fresh pass computes.
    prompt, model, n_heads, n_kv_heads, eps, _ = _random(rng, 4, 6, 12, 2, 13, 16, 4, 2, 4, 24)
    extended = np.concatenate([prompt, _first_token(prompt, model, n_heads, n_kv_heads, eps)[:, None]], axis=1)
    yield _case("probe_prompt", True, prompt, model, n_heads, n_kv_heads, eps, 12) | {"probe": True}
    yield _case("probe_prompt_with_first_token", True, extended, model, n_heads, n_kv_heads, eps, 11) | {"probe": True}
