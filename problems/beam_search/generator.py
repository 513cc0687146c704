"""Deterministic test cases for beam_search.

The loader seeds ``rng`` from [tests].seed in problem.toml; ``start_token``, ``beam_width`` and ``steps`` are
plain ints (kind "int"). Every row of ``log_probs`` is a log-distribution (its exp sums to 1). Ties are exact:
a uniform row gives every continuation the same score, computed the same way, and rows made from integer
logits repeat values exactly, so the tie rule decides those cases rather than rounding.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _case(name: str, hidden: bool, log_probs, start: int, width: int, steps: int) -> dict:
    return {"name": name, "hidden": hidden, "args": {
        "log_probs": np.ascontiguousarray(log_probs, dtype=np.float64), "start_token": int(start),
        "beam_width": int(width), "steps": int(steps)}}


def _separated(log_probs: np.ndarray, start: int, width: int, steps: int) -> bool:
    """Whether the last kept and the first dropped candidate are more than 1e-9 apart at every step, and the best
    two sequences at the end too: a random model's sequences can reach mathematically equal scores by taking the
    same transitions in another order, and whether those sums come out exactly equal depends on the order of
    the additions, so random cases keep such near-ties away from where they would decide the answer."""
    sequences, scores = np.array([[start]]), np.zeros(1)
    for _ in range(steps):
        candidates = (scores[:, None] + log_probs[sequences[:, -1]]).ravel()
        order = np.argsort(-candidates, kind="stable")
        edge = candidates[order[width - 1:width + 1]]
        if len(edge) == 2 and np.isfinite(edge[1]) and edge[0] - edge[1] < 1e-9:
            return False
        beam, token = np.divmod(order[:width], log_probs.shape[0])
        sequences = np.concatenate([sequences[beam], token[:, None]], axis=1)
        scores = candidates[order[:width]]
    return len(scores) < 2 or scores[0] - scores[1] >= 1e-9


def _random(name: str, rng: np.random.Generator, vocab: int, scale: float, width: int, steps: int) -> dict:
    start = int(rng.integers(0, vocab))
    while True:
        log_probs = _log_softmax(scale * rng.standard_normal((vocab, vocab)))
        if _separated(log_probs, start, width, steps):
            return _case(name, True, log_probs, start, width, steps)


def _trap(rng: np.random.Generator, vocab: int) -> np.ndarray:
    """A model whose likeliest first token leads nowhere: greedy decoding walks into a flat row."""
    logits = rng.standard_normal((vocab, vocab))
    logits[0, 1], logits[0, 2] = 3.0, 2.8  # from 0, token 1 is a little likelier than token 2 ...
    logits[1] = 0.0  # ... but after 1 every token is equally unlikely,
    logits[2, 3] = 6.0  # while after 2 one token is almost certain.
    return _log_softmax(logits)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    example = np.log(np.array([[0.1, 0.5, 0.4], [0.4, 0.3, 0.3], [0.05, 0.05, 0.9]]))
    yield _case("example_beats_greedy", False, example, 0, 2, 2)
    yield _case("example_all_tied", False, np.full((3, 3), np.log(1 / 3)), 1, 2, 3)

    # Hidden cases (the judge runs them smallest first).
    yield _random("one_step", rng, 6, 1.0, 3, 1)
    yield _random("width_one_is_greedy", rng, 8, 2.0, 1, 5)
    yield _case("uniform_rows_all_tied", True, np.full((5, 5), np.log(1 / 5)), 2, 3, 4)
    # Integer logits: equal log-probabilities within rows, so equal candidates at several steps.
    yield _case("ties_within_rows", True, _log_softmax(rng.integers(0, 3, size=(6, 6)).astype(float)), 0, 3, 5)
    yield _case("greedy_trap", True, _trap(rng, 10), 0, 2, 4)
    yield _random("width_above_vocab", rng, 4, 1.0, 10, 4)
    yield _random("width_keeps_everything", rng, 3, 1.0, 100, 3)
    banned = 2.0 * rng.standard_normal((12, 12))
    banned[rng.random((12, 12)) < 0.4] = -np.inf
    banned[np.arange(12), (np.arange(12) + 1) % 12] = rng.standard_normal(12)  # every row allows a token
    yield _case("banned_transitions", True, _log_softmax(banned), 5, 4, 6)
    yield _random("peaked_model", rng, 20, 3.0, 4, 8)
    yield _random("long_search", rng, 50, 1.5, 8, 20)
    yield _random("wide_vocabulary", rng, 400, 2.0, 6, 12)
