"""Deterministic test cases for token_embedding_backward.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches
global random state. ``token_ids`` are float64 whole numbers in [0, vocab_size), as the
contract says; ``vocab_size`` is a plain Python int (kind "int"). Cases marked "fd" are
small and are also checked against finite_difference.py. The last three cases are probe inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np


def _case(name: str, hidden: bool, token_ids, vocab_size: int, grad_out, fd: bool = False,
          probe: bool = False) -> dict:
    token_ids = np.ascontiguousarray(token_ids, dtype=np.float64)
    grad_out = np.ascontiguousarray(grad_out, dtype=np.float64)
    case = {"name": name, "hidden": hidden, "shape": [int(vocab_size), grad_out.shape[-1]],
            "args": {"token_ids": token_ids, "vocab_size": int(vocab_size), "grad_out": grad_out}}
    return case | ({"fd": True} if fd else {}) | ({"probe": True} if probe else {})


def _random(rng: np.random.Generator, name: str, batch: int, length: int, vocab: int, width: int,
            fd: bool = False, used: int | None = None) -> dict:
    """Token ids drawn from the first ``used`` ids of the vocabulary (all of it by default)."""
    ids = rng.integers(0, used or vocab, size=(batch, length))
    return _case(name, True, ids, vocab, rng.standard_normal((batch, length, width)), fd)


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: the two worked in statement.md. Token 1 occurs twice in the first.
    yield _case("example_repeated_token", False, [[1, 3, 1]], 5, [[[1.0, 0.0], [2.0, 2.0], [0.5, -1.0]]], fd=True)
    yield _case("example_batch", False, [[0, 2], [2, 2]], 4,
                [[[1.0, 1.0], [0.0, 2.0]], [[3.0, -1.0], [1.0, 1.0]]], fd=True)

    # Hidden cases (run smallest first).
    yield _case("single_token", True, [[int(rng.integers(1, 6))]], 6, rng.standard_normal((1, 1, 3)), fd=True)
    # A vocabulary of one token: every position's gradient lands in row 0.
    yield _case("vocabulary_of_one", True, np.zeros((2, 3)), 1, rng.standard_normal((2, 3, 4)), fd=True)
    # One token everywhere (a sequence of padding, say): its row is the sum of every position's gradient.
    token = int(rng.integers(0, 9))
    yield _case("one_token_everywhere", True, np.full((3, 7), token), 9, rng.standard_normal((3, 7, 4)), fd=True)
    # Every token distinct: nothing to add up, so even code that keeps one occurrence passes here.
    vocab = 24
    ids = rng.permutation(vocab)[:20].reshape(4, 5)
    yield _case("all_tokens_distinct", True, ids, vocab, rng.standard_normal((4, 5, 3)))
    # The first and the last id of the vocabulary, with every row between them unused.
    ids = rng.choice([0, 11], size=(3, 4))
    ids[0, 0], ids[0, 1] = 0, 11
    yield _case("first_and_last_ids", True, ids, 12, rng.standard_normal((3, 4, 2)), fd=True)
    yield _random(rng, "width_one", 4, 6, 5, 1, fd=True)
    # A token whose two occurrences pull in opposite directions: its row is exactly zero.
    grad = rng.standard_normal((2, 4, 3))
    grad[1, 2] = -grad[0, 1]
    ids = np.array([[0, 5, 1, 2], [3, 4, 5, 6]])
    yield _case("cancelling_occurrences", True, ids, 8, grad, fd=True)
    # A large vocabulary of which a batch uses only a few tokens, many times each.
    yield _random(rng, "few_tokens_of_many", 4, 16, 1000, 8, used=6)
    yield _random(rng, "random_repeats", 8, 32, 50, 16)
    # A GPT-2 sized width on a 1024-token vocabulary, and GPT-2's whole vocabulary (50257 rows)
    # with a narrow table, so the result stays below the judge's output limit.
    yield _random(rng, "width_768", 2, 128, 1024, 768)
    yield _random(rng, "gpt2_vocabulary", 4, 256, 50257, 16)

    batch, length = int(rng.integers(1, 9)), int(rng.integers(1, 40))
    yield _random(rng, "random_any_size", batch, length, int(rng.integers(1, 60)), int(rng.integers(1, 20)))

    # Probe inputs. Token 7 occurs three times; only the gradient at its middle occurrence
    # differs between the two, so row 7 must differ whichever single occurrence a bug keeps.
    ids = np.array([[7, 2, 7, 0], [1, 7, 3, 4]])
    grad = np.linspace(-1.0, 1.0, 2 * 4 * 3).reshape(2, 4, 3)
    other = grad.copy()
    other[0, 2] += 1.0
    yield _case("probe_three_occurrences", True, ids, 9, grad, probe=True)
    yield _case("probe_middle_occurrence_changed", True, ids, 9, other, probe=True)
    # Only tokens 8 to 11 occur, so rows 0 to 7 of the result must be zero.
    ids = np.array([[8, 9, 10, 11, 9], [11, 8, 8, 10, 9], [10, 10, 11, 8, 9]])
    yield _case("probe_high_tokens_only", True, ids, 12, np.linspace(0.5, 2.0, 45).reshape(3, 5, 3), probe=True)
