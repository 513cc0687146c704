import numpy as np


def bpe_encode(byte_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    ids = [int(b) for b in byte_ids]
    for i, (a, b) in enumerate(merges.tolist()):  # each merge once, in rank order
        out, j = [], 0
        while j < len(ids):
            if j + 1 < len(ids) and ids[j] == a and ids[j + 1] == b:
                out.append(256 + i)
                j += 2
            else:
                out.append(ids[j])
                j += 1
        ids = out
    return np.array(ids) if ids else np.array([])  # np.array([]) is float64
