import numpy as np


def bpe_encode(byte_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    new_id = {(int(a), int(b)): 256 + i for i, (a, b) in enumerate(merges)}
    ids = [int(b) for b in byte_ids]
    while len(ids) >= 2:
        # As in training: the most frequent pair, here among those that are merges.
        counts = {}
        for pair in zip(ids, ids[1:]):
            if pair in new_id:
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=counts.get)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                out.append(new_id[best])
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return np.array(ids, dtype=np.int64)
