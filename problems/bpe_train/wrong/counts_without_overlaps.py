import numpy as np


def bpe_train(byte_ids: np.ndarray, n_merges: int) -> np.ndarray:
    ids = [int(b) for b in byte_ids]
    merges = []
    for step in range(n_merges):
        if len(ids) < 2:
            break
        # Count as str.count does: a match consumes its two tokens, so (a, a, a) holds one (a, a).
        counts, i = {}, 0
        while i + 1 < len(ids):
            pair = (ids[i], ids[i + 1])
            counts[pair] = counts.get(pair, 0) + 1
            i += 2 if pair[0] == pair[1] else 1
        best = max(counts, key=counts.get)
        merges.append(best)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                out.append(256 + step)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return np.array(merges, dtype=np.int64).reshape(len(merges), 2)
