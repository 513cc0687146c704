"""Deterministic test cases for pre_ln_block.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. The last two cases are probe inputs: they are never graded
against an expected output, only checked for the property declared in problem.toml.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

WEIGHTS = ("ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2")


def _case(name: str, hidden: bool, x, weights: dict, n_heads: int, causal: bool, probe: bool = False) -> dict:
    args = {"x": np.ascontiguousarray(x, dtype=np.float64)}
    args.update({key: np.ascontiguousarray(weights[key], dtype=np.float64) for key in WEIGHTS})
    args["n_heads"] = n_heads
    args["causal"] = causal
    case = {"name": name, "hidden": hidden, "args": args, "shape": tuple(args["x"].shape)}
    if probe:
        case["probe"] = True
    return case


def _weights(rng: np.random.Generator, width: int, hidden: int) -> dict:
    # Roughly the scale of a trained block: projections with standard deviation 1/sqrt(fan-in),
    # layer-norm gains near 1 and small shifts and biases, so no sublayer dominates the sum.
    def matrix(rows: int, cols: int) -> np.ndarray:
        return rng.standard_normal((rows, cols)) / np.sqrt(rows)

    def gain() -> np.ndarray:
        return 1.0 + 0.2 * rng.standard_normal(width)

    return {
        "ln1_gamma": gain(), "ln1_beta": 0.1 * rng.standard_normal(width),
        "w_q": matrix(width, width), "w_k": matrix(width, width),
        "w_v": matrix(width, width), "w_o": matrix(width, width),
        "ln2_gamma": gain(), "ln2_beta": 0.1 * rng.standard_normal(width),
        "w1": matrix(width, hidden), "b1": 0.1 * rng.standard_normal(hidden),
        "w2": matrix(hidden, width), "b2": 0.1 * rng.standard_normal(width),
    }


def _random(rng: np.random.Generator, batch: int, length: int, n_heads: int, d_head: int, hidden: int,
            scale: float = 1.0) -> tuple:
    width = n_heads * d_head
    return scale * rng.standard_normal((batch, length, width)), _weights(rng, width, hidden)


def _example() -> tuple:
    # The worked example of statement.md: w_q = w_k = 0 gives uniform attention over the allowed
    # keys, w_v = w_o = w1 = w2 = I, unit gains and zero shifts, b2 = [0.5, 0.5].
    eye, zeros, ones = np.eye(2), np.zeros((2, 2)), np.ones(2)
    weights = {
        "ln1_gamma": ones, "ln1_beta": np.zeros(2), "w_q": zeros, "w_k": zeros, "w_v": eye, "w_o": eye,
        "ln2_gamma": ones, "ln2_beta": np.zeros(2), "w1": eye, "b1": np.zeros(2), "w2": eye,
        "b2": np.array([0.5, 0.5]),
    }
    return np.array([[[1.0, 3.0], [2.0, 0.0]]]), weights


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_1", False, *_example(), 1, False)
    yield _case("example_2_causal", False, *_example(), 1, True)

    # Hidden cases. The first is causal with a hidden width unlike D, so every known mistake shows on it.
    batch, length = int(rng.integers(2, 4)), int(rng.integers(4, 9))
    yield _case("random_small_causal", True, *_random(rng, batch, length, 2, 4, 32), 2, True)
    yield _case("random_small_bidirectional", True, *_random(rng, 2, 7, 3, 4, 48), 3, False)
    yield _case("one_head", True, *_random(rng, 2, 6, 1, 8, 16), 1, True)
    yield _case("batch_of_one", True, *_random(rng, 1, 9, 2, 6, 24), 2, True)
    yield _case("length_one", True, *_random(rng, 3, 1, 2, 4, 32), 2, True)
    yield _case("head_width_one", True, *_random(rng, 2, 5, 4, 1, 8), 4, False)
    yield _case("hidden_narrower_than_width", True, *_random(rng, 2, 6, 2, 8, 4), 2, True)
    # Inputs of size ~1e3: the residual stream dominates, but the layer norms see unit-scale rows.
    yield _case("large_inputs", True, *_random(rng, 2, 8, 2, 4, 32, scale=1e3), 2, True)

    batch, length = int(rng.integers(1, 4)), int(rng.integers(1, 17))
    n_heads, d_head = int(rng.integers(1, 5)), int(rng.integers(1, 9))
    hidden = 4 * n_heads * d_head
    yield _case("random_any_size", True, *_random(rng, batch, length, n_heads, d_head, hidden), n_heads,
                bool(rng.integers(0, 2)))

    # ViT-Ti/16: 197 tokens (196 patches and the class token), D = 192 in 3 heads, hidden 768.
    yield _case("vit_tiny_bidirectional", True, *_random(rng, 1, 197, 3, 64, 768), 3, False)
    # GPT-2 small's attention (D = 768 in 12 heads of 64) on 32 tokens; the hidden width is
    # 1536 rather than 3072, whose (768, 3072) weight would exceed the judge's per-array limit.
    yield _case("gpt2_small_width_causal", True, *_random(rng, 1, 32, 12, 64, 1536), 12, True)

    # Probe inputs: with causal=True, change only token 5; outputs 0..4 must not move.
    x, weights = _random(rng, 2, 8, 2, 4, 32)
    changed = x.copy()
    changed[:, 5, :] = rng.standard_normal((2, 8))
    yield _case("leak_base", True, x, weights, 2, True, probe=True)
    yield _case("leak_future_token_changed", True, changed, weights, 2, True, probe=True)
