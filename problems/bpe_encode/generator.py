"""Deterministic test cases for bpe_encode.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Text travels as its UTF-8 bytes in an int64 array; the merges are learnt here from a
training text as bpe_train learns them (minbpe's basic tokenizer).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

PARAGRAPH = (
    "A tokenizer turns text into the integers a model reads. Byte pair encoding starts from the "
    "bytes of the text and keeps gluing together the two neighbours seen together most often, "
    "so that common words and pieces of words become single tokens while rare ones stay spelled "
    "out byte by byte. The merges it learns are the whole tokenizer: apply them in order and any "
    "text comes out as tokens; undo them and the bytes come back."
)


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)


def _replace(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _train(text: str | np.ndarray, n_merges: int) -> np.ndarray:
    data = _bytes(text) if isinstance(text, str) else text
    ids, merges = [int(b) for b in data], []
    for step in range(n_merges):
        if len(ids) < 2:
            break
        counts: dict[tuple[int, int], int] = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        merges.append(best)
        ids = _replace(ids, best, 256 + step)
    return np.array(merges, dtype=np.int64).reshape(-1, 2)


def _case(name: str, hidden: bool, text, merges) -> dict:
    byte_ids = _bytes(text) if isinstance(text, str) else np.asarray(text, dtype=np.int64)
    args = {"byte_ids": np.ascontiguousarray(byte_ids), "merges": np.ascontiguousarray(merges, dtype=np.int64)}
    return {"name": name, "hidden": hidden, "args": args}


def _shuffled_words(rng: np.random.Generator, count: int) -> str:
    words = PARAGRAPH.split(" ")
    return " ".join(words[i] for i in rng.integers(0, len(words), size=count))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    minbpe = _train("aaabdaaabac", 3)  # [[97, 97], [256, 97], [257, 98]]
    # Visible examples: minbpe's own, and a new text under the same merges.
    yield _case("example_minbpe", False, "aaabdaaabac", minbpe)
    yield _case("example_new_text", False, "baaaab", minbpe)

    # Hidden cases (run smallest first).
    yield _case("empty_text", True, "", minbpe)
    yield _case("one_byte", True, "a", minbpe)
    yield _case("no_merges", True, "hello world", np.zeros((0, 2), dtype=np.int64))
    yield _case("no_merge_applies", True, "xyz xyz", minbpe)
    # (b, c) has rank 0 but occurs once; (a, b) has rank 1 and occurs four times. Rank decides.
    yield _case("rank_beats_frequency", True, "ab ab ab abc", np.array([[98, 99], [97, 98]]))
    # Merges of merges over a run of one byte: (a, a), then (256, 256), then (257, 257).
    yield _case("run_of_one_byte", True, "a" * 13, _train("a" * 16, 3))
    yield _case("utf8_multibyte_text", True, "東京 and 京都, naïve café", _train("東京, 京都, café, naïve, 東京", 10))
    yield _case("training_text_itself", True, PARAGRAPH, _train(PARAGRAPH, 60))
    yield _case("unseen_text", True, "The model reads tokens; the tokenizer writes them.", _train(PARAGRAPH, 60))
    alphabet = np.array([0, 1, 254, 255], dtype=np.int64)
    yield _case("bytes_0_1_254_255", True, rng.choice(alphabet, size=80), _train(rng.choice(alphabet, size=200), 12))
    text = _shuffled_words(rng, int(rng.integers(5, 60)))
    yield _case("random_any_size", True, text, _train(_shuffled_words(rng, 200), int(rng.integers(1, 80))))
    yield _case("long_text_many_merges", True, _shuffled_words(rng, 300), _train(_shuffled_words(rng, 200), 80))
