import numpy as np


def _merge(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    # Left to right, never overlapping: in (a, a, a) only the first two become one token.
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def bpe_train(byte_ids: np.ndarray, n_merges: int) -> np.ndarray:
    """Reference: minbpe's basic tokenizer, one merge at a time on the current sequence."""
    ids = [int(b) for b in byte_ids]
    merges = []
    for step in range(n_merges):
        if len(ids) < 2:
            break
        counts: dict[tuple[int, int], int] = {}
        for pair in zip(ids, ids[1:]):  # a dict keeps its keys in the order they first appear
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)  # the first key with the largest count wins a tie
        merges.append(best)
        ids = _merge(ids, best, 256 + step)
    return np.array(merges, dtype=np.int64).reshape(len(merges), 2)
