"""Deterministic test cases for attend_with_kv_cache.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. The cache always holds at least one position (T >= 1). The
last four cases are probe inputs, never graded: a step and the same step with
another v_t, and a step and the same step with the cached positions shuffled.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

NAMES = ("q_t", "k_cache", "v_cache", "k_t", "v_t")


def _case(name: str, hidden: bool, arrays, probe: bool = False) -> dict:
    args = {key: np.ascontiguousarray(a, dtype=np.float64) for key, a in zip(NAMES, arrays)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": tuple(args["q_t"].shape)}
    if probe:
        case["probe"] = True
    return case


def _step(rng: np.random.Generator, batch: int, heads: int, cached: int, d: int, scale: float = 1.0) -> list:
    q_t = scale * rng.standard_normal((batch, heads, 1, d))
    k_cache = scale * rng.standard_normal((batch, heads, cached, d))
    v_cache = rng.standard_normal((batch, heads, cached, d))
    k_t = scale * rng.standard_normal((batch, heads, 1, d))
    v_t = rng.standard_normal((batch, heads, 1, d))
    return [q_t, k_cache, v_cache, k_t, v_t]


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples (the ones worked in statement.md): B = H = 1, d = 2.
    q_t = np.array([[[[1.0, 0.0]]]])
    k_cache = np.array([[[[1.0, 0.0], [0.0, 1.0]]]])
    v_cache = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    k_t = np.array([[[[1.0, 1.0]]]])
    v_t = np.array([[[[7.0, 0.0]]]])
    yield _case("example_1", False, [q_t, k_cache, v_cache, k_t, v_t])
    # One cached position whose key is orthogonal to the query.
    yield _case("example_2_one_cached", False, [np.array([[[[0.0, 2.0]]]]), np.array([[[[3.0, 0.0]]]]),
                                                 np.array([[[[1.0, 1.0]]]]), np.array([[[[0.0, 1.0]]]]),
                                                 np.array([[[[0.0, -1.0]]]])])

    # Hidden cases.
    batch, heads = int(rng.integers(2, 5)), int(rng.integers(2, 5))
    cached, d = int(rng.integers(3, 13)), int(rng.integers(4, 17))
    yield _case("random_small", True, _step(rng, batch, heads, cached, d))
    yield _case("cache_of_one", True, _step(rng, 3, 2, 1, 6))
    yield _case("batch_of_one", True, _step(rng, 1, 4, 9, 8))
    yield _case("one_head", True, _step(rng, 2, 1, 7, 5))
    yield _case("width_one", True, _step(rng, 2, 3, 6, 1))

    # The new key matches the query much better than any cached key: nearly all weight on itself.
    step = _step(rng, 2, 2, 8, 8)
    step[3] = 6.0 * step[0]
    yield _case("attends_mostly_to_itself", True, step)

    # All-zero query: the weights are uniform over the T + 1 positions.
    step = _step(rng, 2, 3, 5, 4)
    step[0] = np.zeros_like(step[0])
    yield _case("zero_query_uniform", True, step)

    # Scores of order 1e3: exp overflows unless the row maximum is subtracted.
    yield _case("large_scores", True, _step(rng, 2, 2, 10, 16, scale=32.0))

    batch, heads = int(rng.integers(1, 4)), int(rng.integers(1, 7))
    cached, d = int(rng.integers(1, 65)), int(rng.integers(1, 33))
    yield _case("random_any_size", True, _step(rng, batch, heads, cached, d))

    # GPT-2 small: 12 heads of width 64, generating token 128 (127 cached), and token 512.
    yield _case("gpt2_small_token_128", True, _step(rng, 1, 12, 127, 64))
    yield _case("gpt2_small_token_512", True, _step(rng, 1, 12, 511, 64))

    # Probe inputs. 1) The same step with another v_t: the output must change.
    step = _step(rng, 2, 3, 6, 4)
    other = [a.copy() for a in step]
    other[4] = step[4] + 3.0 + rng.standard_normal(step[4].shape)
    yield _case("self_base", True, step, probe=True)
    yield _case("self_v_t_changed", True, other, probe=True)
    # 2) The cached positions shuffled (keys and values alike): the output must not change.
    step = _step(rng, 2, 3, 6, 4)
    order = rng.permutation(6)
    order = order if order[0] != 0 else order[::-1]  # position 0 always moves
    shuffled = [step[0], step[1][:, :, order], step[2][:, :, order], step[3], step[4]]
    yield _case("cache_base", True, step, probe=True)
    yield _case("cache_shuffled", True, shuffled, probe=True)
