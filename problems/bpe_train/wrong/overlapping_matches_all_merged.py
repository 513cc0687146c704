import numpy as np


def bpe_train(byte_ids: np.ndarray, n_merges: int) -> np.ndarray:
    ids = byte_ids.astype(np.int64)
    merges = []
    for step in range(n_merges):
        if ids.size < 2:
            break
        counts = {}
        for pair in zip(ids[:-1].tolist(), ids[1:].tolist()):
            counts[pair] = counts.get(pair, 0) + 1
        a, b = max(counts, key=counts.get)
        merges.append((a, b))
        # Vectorised merge: every position where the pair starts becomes the new id and the token
        # after it is dropped, so in (a, a, a) both overlapping matches are taken.
        starts = np.flatnonzero((ids[:-1] == a) & (ids[1:] == b))
        ids = ids.copy()
        ids[starts] = 256 + step
        ids = np.delete(ids, starts + 1)
    return np.array(merges, dtype=np.int64).reshape(len(merges), 2)
