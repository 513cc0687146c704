"""Deterministic test cases for speculative_accept.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``draft_tokens`` is int64 (kind "int_array"). Each draft token is one the draft model could
propose (q > 0 there). Two comparisons decide the result, u_i < p/q and u_K against a cumulative
sum, and correct programs compute p/q and the normalised residual's sums a few ulps apart, so
every case keeps each u at least 1e-9 from every ratio and every cumulative sum it could meet
(``_clear``). The draws of the distribution probe come last: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

MARGIN = 1e-9


def _distribution(rng: np.random.Generator, rows: int, vocab: int, peak: float = 1.0) -> np.ndarray:
    logits = peak * rng.standard_normal((rows, vocab))
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _clear(tokens, q, p, u) -> None:
    """Every u at least MARGIN from the ratio it is compared with and from the sums a final draw could use."""
    k = len(tokens)
    for i, t in enumerate(tokens):
        if abs(u[i] - p[i, t] / q[i, t]) <= MARGIN:
            raise ValueError(f"uniforms[{i}] lies within {MARGIN} of p/q")
    sums = [np.cumsum(p[k])]
    for i in range(k):
        residual = np.maximum(p[i] - q[i], 0.0)
        if residual.sum() > 0:
            sums.append(np.cumsum(residual / residual.sum()))
    for cumulative in sums:
        c = cumulative[cumulative > 0]  # leading ids of probability 0 sum to exactly 0 in every way of summing
        if np.min(np.abs(c - u[k])) <= MARGIN or u[k] >= c[-1] - MARGIN:
            raise ValueError("uniforms[K] lies within 1e-9 of a cumulative probability")


def _case(name: str, hidden: bool, tokens, q, p, u, probe: bool = False) -> dict:
    tokens = np.ascontiguousarray(tokens, dtype=np.int64)
    q, p, u = (np.ascontiguousarray(a, dtype=np.float64) for a in (q, p, u))
    assert all(q[i, t] > 0 for i, t in enumerate(tokens))
    _clear(tokens, q, p, u)
    case = {"name": name, "hidden": hidden,
            "args": {"draft_tokens": tokens, "draft_probs": q, "target_probs": p, "uniforms": u}}
    return case | {"probe": True} if probe else case


def _random(name: str, rng: np.random.Generator, k: int, vocab: int, peak: float = 1.0, close: float = 0.0) -> dict:
    """Draft tokens sampled from q; a target p that is q mixed with another distribution (``close`` of q)."""
    q = _distribution(rng, k, vocab, peak)
    p = _distribution(rng, k + 1, vocab, peak)
    p[:k] = close * q + (1 - close) * p[:k]
    tokens = np.array([rng.choice(vocab, p=row) for row in q], dtype=np.int64)
    return _case(name, True, tokens, q, p, rng.uniform(0.0, 0.95, size=k + 1))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    q = np.array([[0.5, 0.3, 0.2], [0.2, 0.6, 0.2]])
    p = np.array([[0.4, 0.4, 0.2], [0.3, 0.3, 0.4], [0.1, 0.2, 0.7]])
    yield _case("example_all_accepted", False, [0, 1], q, p, [0.5, 0.2, 0.25])
    yield _case("example_second_rejected", False, [0, 1], q, p, [0.5, 0.7, 0.25])

    # Hidden cases (the judge runs them smallest first).
    yield _case("first_rejected", True, [2], [[0.1, 0.2, 0.7]], [[0.3, 0.5, 0.2], [1 / 3, 1 / 3, 1 / 3]], [0.9, 0.7])
    # The target gives the draft token probability 0: it is always rejected.
    yield _case("target_rules_it_out", True, [1, 0], [[0.5, 0.5, 0.0], [0.6, 0.2, 0.2]],
                [[0.7, 0.0, 0.3], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6]], [0.01, 0.5, 0.5])
    # The same distributions: every draft token is accepted and the extra token comes from p_K.
    same = _distribution(rng, 4, 6)
    yield _case("draft_equals_target", True, [1, 4, 0], same[:3], same, [0.999, 0.5, 0.9, 0.33])
    # u 1e-6 on either side of p/q = 0.5.
    yield _case("just_below_the_ratio", True, [0], [[0.6, 0.4]], [[0.3, 0.7], [0.5, 0.5]], [0.5 - 1e-6, 0.2])
    yield _case("just_above_the_ratio", True, [0], [[0.6, 0.4]], [[0.3, 0.7], [0.5, 0.5]], [0.5 + 1e-6, 0.2])
    # u_K = 0 picks the first id of positive probability, never a leading one of probability 0.
    yield _case("zero_uniform_skips_impossible_ids", True, [3], [[0.0, 0.1, 0.2, 0.7]],
                [[0.0, 0.0, 0.6, 0.4], [0.25, 0.25, 0.25, 0.25]], [0.8, 0.0])
    yield _random("one_draft_token", rng, 1, 5, close=0.3)
    yield _random("several_steps", rng, 5, 12, close=0.6)
    yield _random("draft_close_to_target", rng, 8, 40, close=0.9)
    yield _random("peaked_distributions", rng, 4, 30, peak=3.0, close=0.5)
    yield _random("large_vocabulary", rng, 6, 5000, peak=2.0, close=0.7)

    # Distribution probe (never graded): one draft token over V = 4, draft q and target p fixed. The
    # draft token is q-distributed over the draws (token t in 10 q_t of every 10), u_0 takes 12
    # evenly spaced values, and the draws that the rule rejects take 4 evenly spaced values of u_1
    # in turn. The rule's first token then has exactly the target's distribution over the 120 draws.
    q = np.array([[0.4, 0.3, 0.2, 0.1]])
    p = np.array([[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]])
    tokens = [0] * 4 + [1] * 3 + [2] * 2 + [3]
    rejected = 0
    for j, token in enumerate(tokens):
        for step in range(12):
            u0 = (2 * step + 1) / 24
            accepted = u0 < p[0, token] / q[0, token]
            u1 = (2 * (rejected % 4) + 1) / 8
            rejected += not accepted
            yield _case(f"probe_draw_{j:02d}_{step:02d}", True, [token], q, p, [u0, u1], probe=True)
