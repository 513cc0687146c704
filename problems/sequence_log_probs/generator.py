"""Deterministic test cases for sequence_log_probs.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Masks follow TRL's layout: a prompt that is not scored, the response that is, and
padding on the right. The last two cases are probe inputs that differ only in the logits of
the last position, which score no token.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, token_ids, loss_mask, probe: bool = False) -> dict:
    args = {"logits": np.ascontiguousarray(logits, dtype=np.float64),
            "token_ids": np.ascontiguousarray(token_ids, dtype=np.int64),
            "loss_mask": np.ascontiguousarray(loss_mask, dtype=np.float64)}
    case = {"name": name, "hidden": hidden, "args": args, "shape": [args["logits"].shape[0]]}
    if probe:
        case["probe"] = True
    return case


def _response_mask(rng: np.random.Generator, batch: int, length: int) -> np.ndarray:
    # Each row: a prompt (0s), a response (1s), right padding (0s).
    mask = np.zeros((batch, length))
    for row in mask:
        start = int(rng.integers(0, length))
        stop = int(rng.integers(start, length + 1))
        row[start:stop] = 1.0
    return mask


def _random(rng: np.random.Generator, batch: int, length: int, vocab: int, scale: float = 3.0) -> tuple:
    logits = scale * rng.standard_normal((batch, length, vocab))
    return logits, rng.integers(0, vocab, size=(batch, length)), _response_mask(rng, batch, length)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible example: the worked one of statement.md.
    logits = np.log(np.array([[[0.5, 0.25, 0.25], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]]]))
    yield _case("example_1", False, logits, [[0, 0, 2]], [[0.0, 1.0, 1.0]])
    yield _case("example_prompt_masked", False, logits, [[0, 0, 2]], [[1.0, 0.0, 1.0]])

    # Hidden cases (run smallest first).
    logits, ids, _ = _random(rng, 3, 1, 5)
    yield _case("one_token_nothing_to_predict", True, logits, ids, np.ones((3, 1)))
    logits, ids, _ = _random(rng, 2, 6, 4)
    yield _case("mask_all_zero", True, logits, ids, np.zeros((2, 6)))
    yield _case("vocabulary_of_one", True, rng.standard_normal((2, 5, 1)), np.zeros((2, 5)), np.ones((2, 5)))
    logits, ids, _ = _random(rng, 1, 9, 7)
    yield _case("batch_of_one_all_scored", True, logits, ids, np.ones((1, 9)))
    yield _case("random_small", True, *_random(rng, int(rng.integers(2, 5)), int(rng.integers(3, 9)), 6))
    # Logits of size 1e4: exp overflows without the shift, and chosen tokens far below the maximum
    # have probabilities that underflow to 0 (a log of -inf) if a probability is ever formed.
    yield _case("logits_of_1e4", True, *_random(rng, 3, 8, 10, scale=1e4))
    logits, ids, mask = _random(rng, 2, 7, 9)
    logits[:, :-1] -= 1e4 * np.eye(9)[ids[:, 1:]]  # every chosen token 1e4 below the rest
    yield _case("chosen_tokens_far_below", True, logits, ids, mask)
    yield _case("random_any_size", True, *_random(rng, int(rng.integers(1, 6)), int(rng.integers(2, 33)),
                                                  int(rng.integers(2, 80)), float(rng.uniform(0.5, 10.0))))
    yield _case("long_response", True, *_random(rng, 4, 256, 64))
    # GPT-2's vocabulary: 2 sequences of 4 tokens, 50257 logits each (0.4M entries).
    yield _case("gpt2_vocabulary", True, *_random(rng, 2, 4, 50257, 4.0))

    # Probe inputs: only the last position's logits differ, and they score no token. Every token is
    # scored, so code that reads the last logits at the last token cannot hide behind the mask.
    logits, ids, _ = _random(rng, 3, 6, 8)
    mask = np.ones((3, 6))
    yield _case("last_logits_a", True, logits, ids, mask, probe=True)
    changed = logits.copy()
    changed[:, -1] = 5.0 * rng.standard_normal((3, 8))
    yield _case("last_logits_b", True, changed, ids, mask, probe=True)
