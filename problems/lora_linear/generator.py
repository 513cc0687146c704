"""Deterministic test cases for lora_linear.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``alpha`` is a plain Python float (kind "float" in problem.toml).
Most layers have D_in != r != D_out, and alpha / r is rarely 1 or 2, so that reading r
from the wrong axis or scaling by the wrong ratio changes the answer. The last four cases
are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, x, weight, lora_a, lora_b, alpha: float, probe: bool = False) -> dict:
    x = np.ascontiguousarray(x, dtype=np.float64)
    weight = np.ascontiguousarray(weight, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [*x.shape[:-1], weight.shape[1]],
            "args": {"x": x, "weight": weight, "lora_a": np.ascontiguousarray(lora_a, dtype=np.float64),
                     "lora_b": np.ascontiguousarray(lora_b, dtype=np.float64), "alpha": float(alpha)}}
    return case | {"probe": True} if probe else case


def _random(rng: np.random.Generator, lead: tuple, d_in: int, d_out: int, rank: int, alpha: float,
            b_scale: float = 1.0):
    # A trained adapter: B has moved away from its initial zeros, to a size comparable
    # with the frozen weight's, so that both terms matter.
    x = rng.standard_normal((*lead, d_in))
    weight = rng.standard_normal((d_in, d_out)) / np.sqrt(d_in)
    lora_a = rng.standard_normal((d_in, rank)) / np.sqrt(d_in)
    lora_b = b_scale * rng.standard_normal((rank, d_out)) / np.sqrt(rank)
    return x, weight, lora_a, lora_b, alpha


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    x = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, -1.0]])
    weight = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    lora_a = np.array([[1.0], [0.0], [1.0]])
    yield _case("example_rank_one", False, x, weight, lora_a, [[2.0, -1.0]], 4.0)
    yield _case("example_adapter_at_init", False, x, weight, lora_a, [[0.0, 0.0]], 4.0)

    # Hidden cases (the judge runs them smallest first).
    yield _case("single_token", True, *_random(rng, (), 6, 4, 2, 8.0))
    yield _case("rank_one", True, *_random(rng, (5,), 7, 5, 1, 1.0))
    # B = 0, LoRA's initialisation: the layer is exactly the frozen one.
    x, weight, lora_a, lora_b, _ = _random(rng, (4,), 8, 6, 3, 16.0)
    yield _case("adapter_at_init", True, x, weight, lora_a, np.zeros_like(lora_b), 16.0)
    # alpha = r: the scale is 1, and r / alpha is 1 too; only the axis r is read from matters.
    yield _case("alpha_equals_rank", True, *_random(rng, (3, 4), 10, 6, 4, 4.0))
    # alpha / r = 16 / 6, not a whole number.
    yield _case("fractional_scale", True, *_random(rng, (2, 5), 12, 9, 6, 16.0))
    # alpha = 0 switches the adapter off whatever A and B hold.
    yield _case("alpha_zero", True, *_random(rng, (3, 3), 5, 7, 2, 0.0))
    # The rank equals the smaller side: the update can be any D_in x D_out matrix.
    yield _case("full_rank", True, *_random(rng, (4,), 6, 9, 6, 3.0))
    # Widening and narrowing layers (an MLP's up and down projections).
    yield _case("widening_layer", True, *_random(rng, (2, 6), 16, 64, 4, 8.0))
    yield _case("narrowing_layer", True, *_random(rng, (2, 6), 64, 16, 8, 32.0))
    yield _case("four_dims", True, *_random(rng, (2, 2, 3), 10, 8, 3, 5.0))
    # Common recipes on GPT-2 small's attention projections: r = 8, alpha = 16 on the query
    # projection (768 -> 768), and r = 64, alpha = 128 on the fused qkv projection (768 -> 2304).
    yield _case("gpt2_query_r8", True, *_random(rng, (1, 64), 768, 768, 8, 16.0, b_scale=0.1))
    yield _case("gpt2_qkv_r64", True, *_random(rng, (1, 16), 768, 2304, 64, 128.0, b_scale=0.05))
    lead = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(0, 3))))
    d_in, d_out = (int(n) for n in rng.integers(1, 33, size=2))
    rank = int(rng.integers(1, min(d_in, d_out) + 1))
    yield _case("random_any_shape", True, *_random(rng, lead, d_in, d_out, rank, float(rng.uniform(0.5, 64.0))))

    # Probe inputs (never graded).
    # 1. The same layer with B = 0 and with a trained B: the adapter must change the output.
    x, weight, lora_a, lora_b, alpha = _random(rng, (3, 4), 6, 5, 2, 8.0)
    yield _case("probe_adapter_zero", True, x, weight, lora_a, np.zeros_like(lora_b), alpha, probe=True)
    yield _case("probe_adapter_trained", True, x, weight, lora_a, lora_b, alpha, probe=True)
    # 2. The same update written at rank r and at rank 2r (A's columns and B's rows duplicated,
    # so A2 @ B2 = 2 A @ B) with the same alpha: alpha / r halves exactly as the update doubles.
    x, weight, lora_a, lora_b, alpha = _random(rng, (3, 4), 7, 5, 3, 12.0)
    yield _case("probe_rank_3", True, x, weight, lora_a, lora_b, alpha, probe=True)
    yield _case("probe_rank_6_duplicated", True, x, weight, np.hstack([lora_a, lora_a]),
                np.vstack([lora_b, lora_b]), alpha, probe=True)
