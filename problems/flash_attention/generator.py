"""Deterministic test cases for flash_attention.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``block_size`` is a plain Python int and ``causal`` a bool.
Block sizes of 1, sizes that do not divide the length and sizes longer than the sequence
are all present. "long_sequence_3072" is the memory-separating test: its full score
matrix, 3072 x 3072 float64 values (75 MB), is more than the 64 MB memory limit, so only
a computation that never holds it passes. The last four cases are probe inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, q, k, v, block_size: int, causal: bool, probe: bool = False) -> dict:
    q = np.ascontiguousarray(q, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": list(q.shape),
            "args": {"q": q, "k": np.ascontiguousarray(k, dtype=np.float64),
                     "v": np.ascontiguousarray(v, dtype=np.float64),
                     "block_size": int(block_size), "causal": bool(causal)}}
    return case | {"probe": True} if probe else case


def _qkv(rng: np.random.Generator, shape: tuple, scale: float = 1.0):
    return scale * rng.standard_normal(shape), scale * rng.standard_normal(shape), rng.standard_normal(shape)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md.
    q = np.array([[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]])
    k = np.array([[[[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]]])
    v = np.array([[[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]]])
    yield _case("example_two_blocks", False, q, k, v, 2, False)
    yield _case("example_causal", False, q, k, v, 2, True)

    # Hidden cases (the judge runs them smallest first).
    yield _case("one_position", True, *_qkv(rng, (1, 2, 1, 4)), 1, True)
    yield _case("block_of_one", True, *_qkv(rng, (2, 2, 6, 4)), 1, False)
    yield _case("block_of_one_causal", True, *_qkv(rng, (2, 2, 6, 4)), 1, True)
    # A block longer than the sequence: one block, ordinary attention.
    yield _case("block_longer_than_sequence", True, *_qkv(rng, (1, 3, 7, 8)), 20, False)
    # Block sizes that do not divide the length: the last block is shorter.
    yield _case("block_4_of_10", True, *_qkv(rng, (2, 2, 10, 8)), 4, False)
    yield _case("causal_block_3_of_11", True, *_qkv(rng, (2, 3, 11, 8)), 3, True)
    # Scores in the thousands: the running maximum rises from block to block by hundreds.
    yield _case("large_scores", True, *_qkv(rng, (1, 2, 12, 16), scale=30.0), 5, False)
    # Scores around -2000 for every key: exp(score - m) underflows unless m is a real score.
    direction = rng.standard_normal(16)
    direction /= np.linalg.norm(direction)
    q = 100.0 * np.broadcast_to(direction, (1, 2, 9, 16)) + rng.standard_normal((1, 2, 9, 16))
    k = -80.0 * np.broadcast_to(direction, (1, 2, 9, 16)) + rng.standard_normal((1, 2, 9, 16))
    yield _case("all_scores_very_negative", True, q, k, rng.standard_normal((1, 2, 9, 16)), 4, True)
    yield _case("width_one", True, *_qkv(rng, (2, 1, 9, 1)), 2, True)
    # GPT-2 small's heads on a 256-token chunk, with the 64-key blocks of a GPU kernel.
    yield _case("gpt2_small_heads", True, *_qkv(rng, (1, 12, 256, 64)), 64, True)
    # The memory-separating test (see the module docstring).
    yield _case("long_sequence_3072", True, *_qkv(rng, (1, 1, 3072, 32)), 256, True)
    length = int(rng.integers(1, 40))
    yield _case("random_any", True, *_qkv(rng, (int(rng.integers(1, 3)), int(rng.integers(1, 4)), length,
                                                int(rng.integers(1, 17)))),
                int(rng.integers(1, length + 3)), bool(rng.random() < 0.5))

    # Probe inputs (never graded).
    # 1. The block size is a detail of the computation: block 1 and one block give the same output.
    q, k, v = _qkv(rng, (1, 2, 8, 4), scale=2.0)
    yield _case("probe_block_1", True, q, k, v, 1, False, probe=True)
    yield _case("probe_block_8", True, q, k, v, 8, False, probe=True)
    # 2. Causal: changing the last key and value leaves every earlier query's output unchanged.
    q, k, v = _qkv(rng, (1, 2, 7, 4))
    k2, v2 = k.copy(), v.copy()
    k2[..., -1, :] = rng.standard_normal((1, 2, 4))
    v2[..., -1, :] = 5.0 + rng.standard_normal((1, 2, 4))
    yield _case("probe_causal_base", True, q, k, v, 3, True, probe=True)
    yield _case("probe_last_key_changed", True, q, k2, v2, 3, True, probe=True)
