"""Deterministic test cases for bpe_decode.

The loader seeds ``rng`` from [tests].seed in problem.toml; nothing here touches global random
state. Text travels as its bytes in an int64 array; the merges are learnt here as bpe_train
learns them and the tokens encoded as bpe_encode encodes them (minbpe's basic tokenizer). The
last two cases are probe inputs: a text's tokens and the same text's raw bytes, which must
decode to the same bytes.
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


def _bytes(text: str | bytes) -> list[int]:
    return list(text.encode("utf-8") if isinstance(text, str) else text)


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


def _train(text: str | bytes, n_merges: int) -> list[tuple[int, int]]:
    ids, merges = _bytes(text), []
    for step in range(n_merges):
        if len(ids) < 2:
            break
        counts: dict[tuple[int, int], int] = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        merges.append(best)
        ids = _replace(ids, best, 256 + step)
    return merges


def _encode(text: str | bytes, merges: list[tuple[int, int]]) -> list[int]:
    ids = _bytes(text)
    for i, pair in enumerate(merges):  # rank order; a merge never recreates an earlier pair
        ids = _replace(ids, pair, 256 + i)
    return ids


def _case(name: str, hidden: bool, token_ids, merges, probe: bool = False) -> dict:
    args = {"token_ids": np.array(token_ids, dtype=np.int64).reshape(-1),
            "merges": np.array(merges, dtype=np.int64).reshape(-1, 2)}
    case = {"name": name, "hidden": hidden, "args": args}
    if probe:
        case["probe"] = True
    return case


def _shuffled_words(rng: np.random.Generator, count: int) -> str:
    words = PARAGRAPH.split(" ")
    return " ".join(words[i] for i in rng.integers(0, len(words), size=count))


def generate(rng: np.random.Generator) -> Iterator[dict]:
    minbpe = _train("aaabdaaabac", 3)  # [(97, 97), (256, 97), (257, 98)]
    # Visible examples: minbpe's encoded example, and tokens in an order no encoder would give.
    yield _case("example_minbpe", False, [258, 100, 258, 97, 99], minbpe)
    yield _case("example_any_token_order", False, [257, 256, 98, 258], minbpe)

    # Hidden cases (run smallest first).
    yield _case("no_tokens", True, [], minbpe)
    yield _case("bytes_only_no_merges", True, _bytes("plain bytes"), [])
    # Merges of merges: id 256 + k stands for 2^(k+1) copies of "a".
    run = _train("a" * 64, 6)
    yield _case("one_token_of_64_bytes", True, [256 + 5], run)
    yield _case("every_level_of_a_run", True, [261, 260, 259, 258, 257, 256, 97], run)
    # Bytes that are not UTF-8 (a lone 0xff, 0xfe, a cut-off two-byte character): bytes, not text.
    raw = bytes([255, 254, 65, 195, 255, 0, 255, 254, 195, 0, 65])
    yield _case("bytes_that_are_not_utf8", True, _encode(raw, _train(raw, 4)), _train(raw, 4))
    text = "東京 and 京都, naïve café, 東京"
    yield _case("utf8_multibyte_text", True, _encode(text, _train(text, 15)), _train(text, 15))
    merges = _train(PARAGRAPH, 60)
    yield _case("training_text", True, _encode(PARAGRAPH, merges), merges)
    yield _case("unseen_text", True, _encode("The model reads tokens; the tokenizer writes them.", merges), merges)
    # Ids drawn at random from the whole vocabulary, in any order.
    yield _case("random_ids", True, rng.integers(0, 256 + len(merges), size=int(rng.integers(20, 200))), merges)
    merges = _train(_shuffled_words(rng, 300), 120)
    yield _case("long_text_many_merges", True, _encode(_shuffled_words(rng, 500), merges), merges)

    # Probe inputs: a text's tokens, and the same text's bytes (which are tokens too).
    text, merges = _shuffled_words(rng, 40), _train(_shuffled_words(rng, 100), 50)
    yield _case("round_trip_tokens", True, _encode(text, merges), merges, probe=True)
    yield _case("round_trip_bytes", True, _bytes(text), merges, probe=True)
