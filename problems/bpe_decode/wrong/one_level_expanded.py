import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    out = []
    for t in token_ids.tolist():
        if t < 256:
            out.append(t)
        else:
            out.extend(merges[t - 256].tolist())  # the pair, which may hold merges itself
    return np.array(out, dtype=np.int64)
