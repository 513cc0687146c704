"""Deterministic test cases for llama_block.

The loader seeds ``rng`` from [tests].seed in problem.toml. ``params`` is a dict of float64 arrays (kind
"params"), ``positions`` int64 (kind "int_array"), ``n_heads`` and ``n_kv_heads`` ints, ``eps`` a float. Weights
are drawn at the scale of a trained model: gains near 1, projections at 1 / sqrt(fan-in).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

KEYS = ("attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down")


def _case(name: str, hidden: bool, x, params: dict, n_heads: int, n_kv_heads: int, positions, eps: float,
          probe: bool = False) -> dict:
    args = {"x": np.ascontiguousarray(x, dtype=np.float64),
            "params": {key: np.ascontiguousarray(params[key], dtype=np.float64) for key in KEYS},
            "n_heads": int(n_heads), "n_kv_heads": int(n_kv_heads),
            "positions": np.ascontiguousarray(positions, dtype=np.int64), "eps": float(eps)}
    case = {"name": name, "hidden": hidden, "shape": list(np.shape(x)), "args": args}
    return case | {"probe": True} if probe else case


def _params(rng: np.random.Generator, width: int, n_heads: int, n_kv_heads: int, d: int, hidden: int,
            q_scale: float = 1.0) -> dict:
    def matrix(rows: int, columns: int) -> np.ndarray:
        return rng.standard_normal((rows, columns)) / np.sqrt(rows)

    return {"attn_norm": 1.0 + 0.2 * rng.standard_normal(width), "w_q": q_scale * matrix(width, n_heads * d),
            "w_k": matrix(width, n_kv_heads * d), "w_v": matrix(width, n_kv_heads * d),
            "w_o": matrix(n_heads * d, width), "ffn_norm": 1.0 + 0.2 * rng.standard_normal(width),
            "w_gate": matrix(width, hidden), "w_up": matrix(width, hidden), "w_down": matrix(hidden, width)}


def _random(rng: np.random.Generator, batch: int, length: int, width: int, n_heads: int, n_kv_heads: int, d: int,
            hidden: int, start: int = 0, eps: float = 1e-5, x_scale: float = 1.0, q_scale: float = 1.0) -> tuple:
    x = x_scale * rng.standard_normal((batch, length, width))
    return (x, _params(rng, width, n_heads, n_kv_heads, d, hidden, q_scale), n_heads, n_kv_heads,
            np.arange(start, start + length), eps)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: a small block with 2 query heads sharing 1 key/value head, and one with 4 over 2
    # whose rows sit at positions 5..9 (as in a decoding step after 5 cached tokens).
    yield _case("example_two_heads_one_kv_head", False, *_random(rng, 1, 3, 4, 2, 1, 2, 6))
    yield _case("example_positions_from_5", False, *_random(rng, 1, 5, 16, 4, 2, 4, 24, start=5))

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_position", True, *_random(rng, 2, 1, 8, 2, 1, 4, 16, start=3))
    yield _case("kv_heads_equal_heads", True, *_random(rng, 2, 5, 8, 2, 2, 4, 16))
    yield _case("one_kv_head_for_all", True, *_random(rng, 1, 6, 16, 4, 1, 4, 24))
    # Head width not D / H (as in Gemma): H * d = 12 for D = 8.
    yield _case("heads_wider_than_the_model", True, *_random(rng, 1, 5, 8, 2, 1, 6, 20))
    # Rows near sqrt(eps) in size: eps is not negligible inside the root.
    yield _case("small_inputs_eps_matters", True, *_random(rng, 2, 4, 8, 2, 1, 4, 16, x_scale=3e-3))
    yield _case("eps_1e-6", True, *_random(rng, 1, 4, 8, 2, 2, 4, 16, eps=1e-6))
    # Queries 40 times their usual size: scores in the thousands, exp() of a raw score overflows.
    yield _case("large_scores", True, *_random(rng, 1, 6, 16, 4, 2, 4, 24, q_scale=40.0))
    # Positions far out (a long cached context before these rows).
    yield _case("positions_from_4000", True, *_random(rng, 2, 6, 16, 4, 2, 4, 32, start=4000))
    yield _case("batch_of_three", True, *_random(rng, 3, 7, 16, 4, 2, 4, 40))
    # Llama's proportions, shrunk: 8 heads over 2 kv heads, F about 8/3 D.
    yield _case("llama_proportions", True, *_random(rng, 2, 24, 64, 8, 2, 8, 172))
    n_kv = int(rng.integers(1, 4))
    n_heads = n_kv * int(rng.integers(1, 3))  # H <= 6
    yield _case("random_any_size", True, *_random(rng, int(rng.integers(1, 4)), int(rng.integers(1, 12)),
                                                  int(rng.integers(2, 20)), n_heads, n_kv,
                                                  2 * int(rng.integers(1, 5)), int(rng.integers(1, 30)),
                                                  start=int(rng.integers(0, 50))))

    # Probe inputs (never graded). Causality: only the last row changed.
    x, params, n_heads, n_kv, positions, eps = _random(rng, 2, 6, 16, 4, 2, 4, 24)
    changed = x.copy()
    changed[:, -1] = rng.standard_normal(changed[:, -1].shape)
    yield _case("probe_causal_base", True, x, params, n_heads, n_kv, positions, eps, probe=True)
    yield _case("probe_last_row_changed", True, changed, params, n_heads, n_kv, positions, eps, probe=True)
    # RoPE: every position moved by the same 13.
    yield _case("probe_positions_base", True, x, params, n_heads, n_kv, positions, eps, probe=True)
    yield _case("probe_positions_plus_13", True, x, params, n_heads, n_kv, positions + 13, eps, probe=True)
