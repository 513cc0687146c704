"""Deterministic test cases for bpe_train.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Text travels as its UTF-8 bytes in an int64 array, since problems take arrays.
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


def _bytes(text: str | bytes) -> np.ndarray:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return np.frombuffer(data, dtype=np.uint8).astype(np.int64)


def _case(name: str, hidden: bool, byte_ids: np.ndarray, n_merges: int) -> dict:
    args = {"byte_ids": np.ascontiguousarray(byte_ids, dtype=np.int64), "n_merges": int(n_merges)}
    return {"name": name, "hidden": hidden, "args": args}


def generate(rng: np.random.Generator) -> Iterator[dict]:
    # Visible examples: minbpe's own example, and a text whose pairs all tie until one token is left.
    yield _case("example_minbpe", False, _bytes("aaabdaaabac"), 3)
    yield _case("example_ties_then_stop", False, _bytes("abcd"), 5)

    # Hidden cases (run smallest first).
    yield _case("empty_text", True, _bytes(""), 4)
    yield _case("one_byte", True, _bytes("x"), 2)
    yield _case("no_merges_asked", True, _bytes("hello hello"), 0)
    # Each pair occurs once: the first pair of the current sequence wins every tie, not the smallest.
    yield _case("first_occurrence_wins_ties", True, _bytes("zyxwvba"), 4)
    # Nine equal bytes: (a, a) is counted 8 times, but one pass merges only 4 of them, left to right.
    yield _case("run_of_one_byte", True, _bytes("a" * 9), 6)
    yield _case("merged_down_to_one_token", True, _bytes("abababab"), 10)
    yield _case("bytes_0_and_255", True, np.array([0, 255, 255, 0, 255, 255, 0, 0, 255, 0], dtype=np.int64), 5)
    yield _case("utf8_multibyte_text", True, _bytes("naïve café, 東京 and 東京 again: ü ü ü"), 12)
    # Every byte once, in a random order: 255 pairs, all tied.
    yield _case("all_256_bytes_shuffled", True, rng.permutation(256).astype(np.int64), 8)
    yield _case("english_paragraph", True, _bytes(PARAGRAPH), 40)
    yield _case("small_alphabet", True, rng.choice(_bytes("acgt"), size=600), 30)

    length, merges = int(rng.integers(50, 400)), int(rng.integers(1, 60))
    yield _case("random_any_size", True, rng.integers(0, 256, size=length) % int(rng.integers(2, 40)), merges)
    # A longer text: the paragraph with shuffled words, 80 merges.
    words = PARAGRAPH.split(" ")
    text = " ".join(words[i] for i in rng.integers(0, len(words), size=250))
    yield _case("long_text_many_merges", True, _bytes(text), 80)
