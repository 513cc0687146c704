"""Deterministic test cases for induction_head_scores.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Patterns are causal softmaxes of random scores, with heads built to behave like the kinds
interpretability finds (induction, previous-token, duplicate-token, attending to the first
token). The last two cases are probe inputs: the same patterns with the first half's rows redrawn.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, attention, seq_len: int, probe: bool = False) -> dict:
    attention = np.ascontiguousarray(attention, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "args": {"attention": attention, "seq_len": int(seq_len)},
            "shape": list(attention.shape[:2])}
    if probe:
        case["probe"] = True
    return case


def _causal_softmax(scores: np.ndarray) -> np.ndarray:
    length = scores.shape[-1]
    scores = np.where(np.tril(np.ones((length, length), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def _random(rng: np.random.Generator, n: int, heads: int, seq_len: int, scale: float = 2.0) -> np.ndarray:
    return _causal_softmax(scale * rng.standard_normal((n, heads, 2 * seq_len, 2 * seq_len)))


def _head(rng: np.random.Generator, seq_len: int, kind: str, strength: float = 8.0) -> np.ndarray:
    """One head's (2S, 2S) pattern, its scores pushed towards one key per query."""
    length = 2 * seq_len
    scores = rng.standard_normal((length, length))
    for i in range(length):
        target = {"induction": i - seq_len + 1, "previous": i - 1, "duplicate": i - seq_len, "first": 0}[kind]
        if 0 <= target <= i:
            scores[i, target] += strength
    return _causal_softmax(scores)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md, S = 3, an exact induction head and a uniform one.
    perfect = np.zeros((6, 6))
    perfect[[0, 1, 2], [0, 1, 2]] = 1.0  # the first half has nothing to copy: each token attends to itself
    perfect[[3, 4, 5], [1, 2, 3]] = 1.0  # query 3 repeats token 0 and attends to key 1, and so on
    uniform = np.tril(np.ones((6, 6))) / np.arange(1, 7)[:, None]
    yield _case("example_1", False, np.stack([perfect, uniform])[None], 3)

    # Hidden cases (run smallest first).
    yield _case("half_of_one_token", True, _random(rng, 2, 3, 1), 1)
    yield _case("one_pattern_one_head", True, _random(rng, 1, 1, 5), 5)
    # A head of each kind: only the induction head scores near 1.
    kinds = ["induction", "previous", "duplicate", "first"]
    yield _case("heads_of_each_kind", True, np.stack([_head(rng, 6, kind) for kind in kinds])[None], 6)
    # Uniform causal attention: query i gives every key 1 / (i + 1).
    length = 2 * 7
    uniform = np.tril(np.ones((length, length))) / np.arange(1, length + 1)[:, None]
    yield _case("uniform_causal", True, np.broadcast_to(uniform, (2, 3, length, length)), 7)
    yield _case("random_small", True, _random(rng, 3, 4, 4), 4)
    # Weights near a uniform spread: every score near the average weight of a key.
    yield _case("flat_random_patterns", True, _random(rng, 4, 2, 10, scale=0.1), 10)
    yield _case("sharp_random_patterns", True, _random(rng, 2, 2, 8, scale=20.0), 8)
    seq_len = int(rng.integers(1, 30))
    yield _case("random_any_size", True, _random(rng, int(rng.integers(1, 5)), int(rng.integers(1, 9)), seq_len),
                seq_len)
    # A 2-layer model's 12 heads: layer 1 holds an induction head and a previous-token head.
    layers = _random(rng, 2, 12, 20)
    layers[1, 5] = _head(rng, 20, "induction")
    layers[0, 3] = _head(rng, 20, "previous")
    yield _case("two_layers_with_an_induction_head", True, layers, 20)
    # Two layers of GPT-2 small's 12 heads on a sequence of 2 x 50 tokens.
    yield _case("gpt2_small_12_heads_2_x_50_tokens", True, _random(rng, 2, 12, 50), 50)

    # Probe inputs: only the rows of the first half's queries differ.
    attention = _random(rng, 2, 3, 6)
    yield _case("first_half_rows_a", True, attention, 6, probe=True)
    changed = attention.copy()
    changed[:, :, :6] = _random(rng, 2, 3, 6)[:, :, :6]
    yield _case("first_half_rows_b", True, changed, 6, probe=True)
