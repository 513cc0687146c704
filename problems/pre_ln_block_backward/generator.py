"""Deterministic test cases for pre_ln_block_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``params`` is a dict with exactly track 2's pre_ln_block weights (kind "params"): the
attention projections are (D, D), the feed-forward weights (D, F) and (F, D) with F mostly unlike D.
``n_heads`` is a Python int, ``causal`` a Python bool. Cases marked "fd" are small and also
checked against finite_difference.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

NAMES = ("ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2")


def _case(name: str, hidden: bool, x, params: dict, n_heads: int, causal: bool, grad_out, fd: bool = False,
          probe: bool = False) -> dict:
    args = {
        "x": np.ascontiguousarray(x, dtype=np.float64),
        "params": {key: np.ascontiguousarray(params[key], dtype=np.float64) for key in NAMES},
        "n_heads": int(n_heads),
        "causal": bool(causal),
        "grad_out": np.ascontiguousarray(grad_out, dtype=np.float64),
    }
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        return case | {"probe": True}
    return case | {"fd": True} if fd else case


def _params(rng: np.random.Generator, width: int, hidden: int, attention_scale: float = 1.0) -> dict:
    # Roughly the scale of a trained block (as in pre_ln_block's tests): projections with standard
    # deviation 1/sqrt(fan-in), gains near 1, small shifts and biases.
    def matrix(rows: int, cols: int, scale: float = 1.0) -> np.ndarray:
        return scale * rng.standard_normal((rows, cols)) / np.sqrt(rows)

    def gain() -> np.ndarray:
        return 1.0 + 0.2 * rng.standard_normal(width)

    return {
        "ln1_gamma": gain(), "ln1_beta": 0.1 * rng.standard_normal(width),
        "w_q": matrix(width, width, attention_scale), "w_k": matrix(width, width, attention_scale),
        "w_v": matrix(width, width), "w_o": matrix(width, width),
        "ln2_gamma": gain(), "ln2_beta": 0.1 * rng.standard_normal(width),
        "w1": matrix(width, hidden), "b1": 0.1 * rng.standard_normal(hidden),
        "w2": matrix(hidden, width), "b2": 0.1 * rng.standard_normal(width),
    }


def _random(rng: np.random.Generator, name: str, batch: int, length: int, n_heads: int, d_head: int, hidden: int,
            causal: bool, scale: float = 1.0, attention_scale: float = 1.0, fd: bool = False) -> dict:
    width = n_heads * d_head
    x = scale * rng.standard_normal((batch, length, width))
    return _case(name, True, x, _params(rng, width, hidden, attention_scale), n_heads, causal,
                 rng.standard_normal((batch, length, width)), fd)


def _example() -> tuple:
    # The worked example of statement.md (pre_ln_block's): w_q = w_k = 0 gives uniform attention,
    # w_v = w_o = w1 = w2 = I, unit gains and zero shifts and biases but b2 = [0.5, 0.5].
    eye, zeros, ones = np.eye(2), np.zeros((2, 2)), np.ones(2)
    params = {
        "ln1_gamma": ones, "ln1_beta": np.zeros(2), "w_q": zeros, "w_k": zeros, "w_v": eye, "w_o": eye,
        "ln2_gamma": ones, "ln2_beta": np.zeros(2), "w1": eye, "b1": np.zeros(2), "w2": eye,
        "b2": np.array([0.5, 0.5]),
    }
    return np.array([[[1.0, 3.0], [2.0, 0.0]]]), params


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md, and a small random causal one.
    x, params = _example()
    yield _case("example_causal", False, x, params, 1, True, [[[1.0, 0.0], [0.0, 0.0]]], fd=True)
    example = _random(rng, "example_random_causal", 1, 3, 2, 2, 6, True, fd=True)
    yield example | {"hidden": False}

    # Hidden cases (run smallest first). The first two are causal on and off, with F unlike D.
    yield _random(rng, "small_causal", 2, 4, 2, 2, 6, True, fd=True)
    yield _random(rng, "small_bidirectional", 2, 3, 3, 2, 5, False, fd=True)
    yield _random(rng, "single_token", 3, 1, 2, 2, 8, True, fd=True)
    yield _random(rng, "one_head", 1, 5, 1, 8, 16, True)
    yield _random(rng, "heads_of_width_one", 2, 5, 4, 1, 8, False)
    yield _random(rng, "hidden_narrower_than_width", 2, 6, 2, 8, 4, True)
    # Inputs of size 1e3: the residual stream dominates, the layer norms still see unit-scale rows.
    yield _random(rng, "large_inputs", 2, 6, 2, 4, 32, True, scale=1e3)
    # Large query and key weights: nearly one-hot attention, where a softmax that is not stable overflows.
    yield _random(rng, "sharp_attention", 2, 6, 2, 4, 16, True, attention_scale=6.0)
    yield _random(rng, "batch_of_one_long_causal", 1, 24, 4, 8, 128, True)
    yield _random(rng, "vit_like_bidirectional", 2, 17, 4, 8, 128, False)
    yield _random(rng, "gpt_like_width_128", 1, 32, 4, 32, 512, True)
    n_heads, d_head = int(rng.integers(1, 4)), int(rng.integers(2, 5))
    yield _random(rng, "random_sizes", int(rng.integers(1, 4)), int(rng.integers(1, 8)), n_heads, d_head,
                  int(rng.integers(1, 3 * n_heads * d_head + 1)), bool(rng.integers(0, 2)))

    # Probe inputs: causal, then the same with grad_out changed at token 2 only. With causal=True,
    # token 2's output reads tokens 0..2, so the gradients at tokens 3.. must not move.
    probe = _random(rng, "causal_base", 2, 6, 2, 4, 16, True)
    args = probe["args"]
    changed = args["grad_out"].copy()
    changed[:, 2, :] = rng.standard_normal((2, 8))
    yield _case("causal_base", True, args["x"], args["params"], 2, True, args["grad_out"], probe=True)
    yield _case("causal_grad_changed_at_token_2", True, args["x"], args["params"], 2, True, changed, probe=True)
