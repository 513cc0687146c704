import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    ids = token_ids.tolist()
    # Undo the merges in the order they were made: expanding a later id can bring back an
    # earlier one that has already been expanded.
    for i, (a, b) in enumerate(merges.tolist()):
        out = []
        for t in ids:
            out.extend([a, b] if t == 256 + i else [t])
        ids = out
    return np.array(ids, dtype=np.int64)
