import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    vocab = {b: [b] for b in range(256)}
    for i, (right, left) in enumerate(merges.tolist()):  # the row read as (right, left)
        vocab[256 + i] = vocab[left] + vocab[right]
    out = []
    for t in token_ids.tolist():
        out.extend(vocab[t])
    return np.array(out, dtype=np.int64)
