import numpy as np


def bpe_train(byte_ids: np.ndarray, n_merges: int) -> np.ndarray:
    ids = [int(b) for b in byte_ids]
    merges = np.zeros((n_merges, 2))  # float64 by default
    done = 0
    for step in range(n_merges):
        if len(ids) < 2:
            break
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        best = max(counts, key=counts.get)
        merges[step] = best
        done += 1
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                out.append(256 + step)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return merges[:done]
