import numpy as np


def _merge(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def bpe_encode(byte_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    """Reference: minbpe's encode, the present pair of the lowest rank merged until none is left."""
    rank = {(int(a), int(b)): i for i, (a, b) in enumerate(merges)}
    ids = [int(b) for b in byte_ids]
    while len(ids) >= 2:
        present = set(zip(ids, ids[1:]))
        best = min(present, key=lambda pair: rank.get(pair, len(rank)))
        if best not in rank:
            break  # no pair of the text is a merge any more
        ids = _merge(ids, best, 256 + rank[best])
    return np.array(ids, dtype=np.int64)
