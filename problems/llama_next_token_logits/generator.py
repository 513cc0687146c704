"""Deterministic test cases for llama_next_token_logits.

The loader seeds ``rng`` from [tests].seed in problem.toml. ``token_ids`` is int64 (kind "int_array"),
``params`` a dict of float64 arrays (kind "params") with the block weights stacked on a leading axis of N
layers, ``n_heads`` and ``n_kv_heads`` ints, ``eps`` a float. Models are drawn at the scale of a trained one:
embeddings of standard deviation 1, gains near 1, projections at 1 / sqrt(fan-in), so the logits are neither
flat nor one-hot.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

KEYS = ("tok_embed", "attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down", "norm",
        "w_out")


def _case(name: str, hidden: bool, token_ids, params: dict, n_heads: int, n_kv_heads: int, eps: float) -> dict:
    ids = np.ascontiguousarray(token_ids, dtype=np.int64)
    args = {"token_ids": ids, "params": {key: np.ascontiguousarray(params[key], dtype=np.float64) for key in KEYS},
            "n_heads": int(n_heads), "n_kv_heads": int(n_kv_heads), "eps": float(eps)}
    return {"name": name, "hidden": hidden, "shape": [ids.shape[0], params["w_out"].shape[1]], "args": args}


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


def _random(rng: np.random.Generator, batch: int, length: int, layers: int, vocab: int, width: int, n_heads: int,
            n_kv_heads: int, d: int, hidden: int, eps: float = 1e-5) -> tuple:
    model = _model(rng, layers, vocab, width, n_heads, n_kv_heads, d, hidden)
    return rng.integers(0, vocab, size=(batch, length)), model, n_heads, n_kv_heads, eps


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: one layer of 2 query heads over 1 key/value head; two layers and two sequences.
    yield _case("example_one_layer", False, *_random(rng, 1, 4, 1, 7, 8, 2, 1, 4, 12))
    yield _case("example_two_layers", False, *_random(rng, 2, 3, 2, 9, 8, 2, 2, 4, 16))

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_token", True, *_random(rng, 2, 1, 2, 11, 8, 2, 1, 4, 16))
    yield _case("vocabulary_of_one", True, *_random(rng, 2, 3, 2, 1, 8, 2, 1, 4, 16))
    yield _case("one_kv_head", True, *_random(rng, 2, 5, 2, 13, 16, 4, 1, 4, 24))
    yield _case("eps_1e-6", True, *_random(rng, 1, 6, 2, 10, 8, 2, 2, 4, 16, eps=1e-6))
    # Token ids repeated inside a sequence and across the batch.
    ids, *model = _random(rng, 4, 6, 2, 5, 8, 2, 1, 4, 16)
    yield _case("batch_of_four_repeated_ids", True, ids % 3, *model)
    yield _case("four_layers", True, *_random(rng, 2, 7, 4, 17, 16, 4, 2, 4, 40))
    yield _case("heads_wider_than_the_model", True, *_random(rng, 1, 5, 2, 12, 8, 2, 1, 6, 20))
    yield _case("long_context_64", True, *_random(rng, 1, 64, 2, 32, 16, 4, 2, 4, 40))
    # Llama's proportions, shrunk: 8 heads over 2, F about 8/3 D, a 512-token vocabulary (about 190,000 weights).
    yield _case("llama_proportions", True, *_random(rng, 2, 16, 2, 512, 64, 8, 2, 8, 172))
    n_kv = int(rng.integers(1, 3))
    yield _case("random_any_size", True, *_random(
        rng, int(rng.integers(1, 4)), int(rng.integers(1, 10)), int(rng.integers(1, 4)), int(rng.integers(2, 40)),
        int(rng.integers(2, 16)), n_kv * int(rng.integers(1, 3)), n_kv, 2 * int(rng.integers(1, 4)),
        int(rng.integers(1, 24))))
