"""Deterministic test cases for multi_head_attention_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``n_heads`` is a Python int. ``mask`` is always given, as in track 1's shapes: all zeros
(no masking), a causal (L, L) or (1, 1, L, L) mask, or a padding mask (B, 1, 1, L); every query
keeps at least one allowed key. Cases marked "fd" are small and also checked against
finite_difference.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _causal(length: int) -> np.ndarray:
    return np.where(np.tri(length, dtype=bool), 0.0, -np.inf)


def _case(name: str, hidden: bool, x, weights, n_heads: int, mask, grad_out, fd: bool = False,
          probe: bool = False) -> dict:
    args = {"x": x, **dict(zip(("w_q", "w_k", "w_v", "w_o"), weights)), "mask": mask, "grad_out": grad_out}
    args = {key: np.ascontiguousarray(value, dtype=np.float64) for key, value in args.items()}
    case = {"name": name, "hidden": hidden, "args": args | {"n_heads": int(n_heads)}}
    if probe:
        return case | {"probe": True}
    return case | {"fd": True} if fd else case


def _weights(rng: np.random.Generator, width: int, scale: float = 1.0) -> list:
    return [scale * rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(4)]


def _random(rng: np.random.Generator, name: str, batch: int, length: int, width: int, n_heads: int, mask=None,
            scale: float = 1.0, fd: bool = False) -> dict:
    mask = np.zeros((length, length)) if mask is None else mask
    return _case(name, True, rng.standard_normal((batch, length, width)), _weights(rng, width, scale), n_heads, mask,
                 rng.standard_normal((batch, length, width)), fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the one worked in statement.md, and a small random one without a mask.
    eye = np.eye(2)
    yield _case("example_causal_two_heads", False, [[[1.0, 0.0], [0.0, 1.0]]], [eye, eye, eye, eye], 2,
                _causal(2), [[[1.0, 0.0], [0.0, 1.0]]], fd=True)
    yield _case("example_random", False, rng.standard_normal((1, 3, 4)), _weights(rng, 4), 2, np.zeros((3, 3)),
                rng.standard_normal((1, 3, 4)), fd=True)

    # Hidden cases (run smallest first).
    yield _random(rng, "one_head", 1, 3, 4, 1, fd=True)
    # One token: its weight on itself is 1, so no gradient reaches w_q or w_k.
    yield _random(rng, "single_token", 2, 1, 4, 2)
    yield _random(rng, "heads_of_width_one", 1, 4, 4, 4, fd=True)
    yield _random(rng, "causal_mask", 2, 4, 6, 3, _causal(4), fd=True)
    yield _random(rng, "causal_mask_four_axes", 1, 5, 8, 2, _causal(5)[None, None])
    padding = np.zeros((2, 1, 1, 6))
    padding[0, ..., 4:] = -np.inf
    padding[1, ..., 5:] = -np.inf
    yield _random(rng, "padding_mask", 2, 6, 8, 4, padding)
    yield _random(rng, "large_scores", 2, 5, 8, 2, scale=6.0)
    yield _random(rng, "vit_tiny", 2, 17, 32, 4)
    yield _random(rng, "gpt_like_width_256", 1, 16, 256, 8, _causal(16))
    heads = int(rng.choice([1, 2, 4]))
    yield _random(rng, "random_sizes", int(rng.integers(1, 4)), int(rng.integers(1, 8)), heads * int(rng.integers(1, 5)),
                  heads)

    # Probe inputs: no mask, then the same tokens (and their gradients) in reverse order.
    x, grad_out, weights = rng.standard_normal((2, 5, 6)), rng.standard_normal((2, 5, 6)), _weights(rng, 6)
    yield _case("order_base", True, x, weights, 3, np.zeros((5, 5)), grad_out, probe=True)
    yield _case("order_reversed", True, x[:, ::-1], weights, 3, np.zeros((5, 5)), grad_out[:, ::-1], probe=True)
