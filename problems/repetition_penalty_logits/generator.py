"""Deterministic test cases for repetition_penalty_logits.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. ``prev_ids`` is int64 (kind "int_array"), ``penalty`` a plain Python float. Ids repeat on
purpose (a token is penalised once however often it appears), and the seen logits include
negative ones, zeros and -inf. The last two cases are probe inputs: never graded.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, logits, prev_ids, penalty: float, probe: bool = False) -> dict:
    logits = np.ascontiguousarray(logits, dtype=np.float64)
    prev_ids = np.ascontiguousarray(prev_ids, dtype=np.int64).reshape(logits.shape[0], -1)
    case = {"name": name, "hidden": hidden, "shape": list(logits.shape),
            "args": {"logits": logits, "prev_ids": prev_ids, "penalty": float(penalty)}}
    return case | {"probe": True} if probe else case


def _ids(rng: np.random.Generator, batch: int, length: int, vocab: int) -> np.ndarray:
    return rng.integers(0, vocab, size=(batch, length), dtype=np.int64)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two shown in statement.md.
    yield _case("example_one_row", False, [[2.0, -1.0, 0.5, 3.0, -2.0]], [[0, 1, 1]], 2.0)
    yield _case("example_two_rows", False, [[1.0, 2.0, -1.0, 0.0], [1.0, 2.0, -1.0, 0.0]], [[1, 3], [2, 2]], 1.5)

    # Hidden cases (the judge runs them smallest first).
    yield _case("no_previous_tokens", True, rng.standard_normal((2, 9)), np.zeros((2, 0)), 1.3)
    yield _case("penalty_one", True, rng.standard_normal((2, 10)), _ids(rng, 2, 6, 10), 1.0)
    # A penalty below 1 rewards repetition: positive logits grow, negative ones shrink towards 0.
    yield _case("penalty_below_one", True, rng.standard_normal((3, 12)), _ids(rng, 3, 8, 12), 0.7)
    # Each row repeats a few ids many times: each must be penalised once.
    yield _case("many_repeats", True, rng.standard_normal((3, 20)), rng.integers(0, 4, size=(3, 40)), 1.5)
    # Seen logits that are zero and -inf stay zero and -inf.
    special = rng.standard_normal((2, 8))
    special[:, 1], special[:, 2] = 0.0, -np.inf
    yield _case("zero_and_masked_logits", True, special, [[1, 2, 5, 1], [2, 2, 1, 7]], 2.5)
    yield _case("all_negative", True, -1.0 - np.abs(rng.standard_normal((3, 15))), _ids(rng, 3, 10, 15), 1.8)
    yield _case("every_token_seen", True, rng.standard_normal((2, 6)), [[5, 4, 3, 2, 1, 0, 0], [0, 1, 2, 3, 4, 5, 5]],
                1.2)
    yield _case("one_row_one_token", True, rng.standard_normal((1, 7)), [[3]], 1.1)
    yield _case("rows_differ", True, rng.standard_normal((4, 30)), _ids(rng, 4, 12, 30), 1.4)
    # GPT-2's vocabulary, 512 previous tokens each, CTRL's suggested 1.2.
    yield _case("gpt2_vocab_512_tokens", True, 3.0 * rng.standard_normal((4, 50257)), _ids(rng, 4, 512, 50257), 1.2)

    # Probe inputs (never graded): changing the second sequence's tokens leaves the first row as it was.
    logits = rng.standard_normal((2, 16))
    ids = _ids(rng, 2, 5, 8)  # ids below 8 only ...
    other = ids.copy()
    other[1] = np.arange(8, 13)  # ... then the second sequence's tokens all 8 and above
    yield _case("probe_rows_base", True, logits, ids, 1.6, probe=True)
    yield _case("probe_other_row_changed", True, logits, other, 1.6, probe=True)
