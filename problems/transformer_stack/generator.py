"""Deterministic test cases for transformer_stack.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. Every weight has a leading layer axis. The last two cases
are probe inputs: never graded against an expected output, only checked for the
property declared in problem.toml.
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


def _weights(rng: np.random.Generator, n_layers: int, width: int, hidden: int) -> dict:
    # Roughly the scale of a trained stack: projections with standard deviation 1/sqrt(fan-in),
    # layer-norm gains near 1 and small shifts and biases; every layer drawn independently.
    def matrix(rows: int, cols: int) -> np.ndarray:
        return rng.standard_normal((n_layers, rows, cols)) / np.sqrt(rows)

    def vector(size: int, centre: float, spread: float) -> np.ndarray:
        return centre + spread * rng.standard_normal((n_layers, size))

    return {
        "ln1_gamma": vector(width, 1.0, 0.2), "ln1_beta": vector(width, 0.0, 0.1),
        "w_q": matrix(width, width), "w_k": matrix(width, width),
        "w_v": matrix(width, width), "w_o": matrix(width, width),
        "ln2_gamma": vector(width, 1.0, 0.2), "ln2_beta": vector(width, 0.0, 0.1),
        "w1": matrix(width, hidden), "b1": vector(hidden, 0.0, 0.1),
        "w2": matrix(hidden, width), "b2": vector(width, 0.0, 0.1),
    }


def _random(rng: np.random.Generator, n_layers: int, batch: int, length: int, n_heads: int, d_head: int,
            hidden: int, scale: float = 1.0) -> tuple:
    width = n_heads * d_head
    return scale * rng.standard_normal((batch, length, width)), _weights(rng, n_layers, width, hidden)


def _example() -> tuple:
    # The worked example of statement.md: two layers of width 2 with one head. w_q = w_k = 0
    # (uniform attention over the allowed keys), w_o = w1 = w2 = I, unit gains, zero shifts;
    # layer 0's values are the identity and layer 1's swap the two features.
    eye, swap = np.eye(2), np.array([[0.0, 1.0], [1.0, 0.0]])
    zeros, ones = np.zeros((2, 2, 2)), np.ones((2, 2))
    weights = {
        "ln1_gamma": ones, "ln1_beta": np.zeros((2, 2)), "w_q": zeros, "w_k": zeros,
        "w_v": np.stack([eye, swap]), "w_o": np.stack([eye, eye]),
        "ln2_gamma": ones, "ln2_beta": np.zeros((2, 2)), "w1": np.stack([eye, eye]), "b1": np.zeros((2, 2)),
        "w2": np.stack([eye, eye]), "b2": np.array([[0.5, 0.5], [0.0, 0.0]]),
    }
    return np.array([[[1.0, 3.0], [2.0, 0.0]]]), weights


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    yield _case("example_1", False, *_example(), 1, False)
    yield _case("example_2_causal", False, *_example(), 1, True)

    # Hidden cases. The first has three layers and a causal mask, so every known mistake shows on it.
    batch, length = int(rng.integers(2, 4)), int(rng.integers(4, 9))
    yield _case("three_layers_causal", True, *_random(rng, 3, batch, length, 2, 4, 32), 2, True)
    yield _case("two_layers_bidirectional", True, *_random(rng, 2, 2, 7, 3, 4, 48), 3, False)
    # One layer: the stack is just the block.
    yield _case("one_layer", True, *_random(rng, 1, 2, 6, 2, 4, 32), 2, True)
    # Six layers: twelve residual updates, where an error in any layer carries to the end.
    yield _case("six_layers", True, *_random(rng, 6, 2, 8, 2, 8, 64), 2, True)
    yield _case("one_head", True, *_random(rng, 3, 2, 6, 1, 8, 16), 1, True)
    yield _case("batch_of_one", True, *_random(rng, 2, 1, 9, 2, 6, 24), 2, False)
    yield _case("length_one", True, *_random(rng, 3, 3, 1, 2, 4, 32), 2, True)
    yield _case("head_width_one", True, *_random(rng, 2, 2, 5, 4, 1, 8), 4, False)
    # Inputs of size ~1e3: the layer norms see unit-scale rows, the stream stays large.
    yield _case("large_inputs", True, *_random(rng, 3, 2, 8, 2, 4, 32, scale=1e3), 2, True)

    n_layers, batch, length = int(rng.integers(1, 5)), int(rng.integers(1, 4)), int(rng.integers(1, 17))
    n_heads, d_head = int(rng.integers(1, 5)), int(rng.integers(1, 9))
    yield _case("random_any_size", True, *_random(rng, n_layers, batch, length, n_heads, d_head, 4 * n_heads * d_head),
                n_heads, bool(rng.integers(0, 2)))

    # A ViT-Ti/16-sized sequence (197 tokens, D = 192 in 3 heads, hidden 768) through 3 layers.
    yield _case("vit_tiny_three_layers", True, *_random(rng, 3, 1, 197, 3, 64, 768), 3, False)
    # GPT-2-style causal layers: heads of width 64 (GPT-2's) and a hidden width of 4D, on 64 tokens.
    # (Several layers at GPT-2 small's full D = 768 would not fit in one judging request.)
    yield _case("gpt2_heads_four_layers_causal", True, *_random(rng, 4, 1, 64, 4, 64, 1024), 4, True)

    # Probe inputs: three causal layers; change only token 5, and outputs 0..4 must not move.
    x, weights = _random(rng, 3, 2, 8, 2, 4, 32)
    changed = x.copy()
    changed[:, 5, :] = rng.standard_normal((2, 8))
    yield _case("leak_base", True, x, weights, 2, True, probe=True)
    yield _case("leak_future_token_changed", True, changed, weights, 2, True, probe=True)
