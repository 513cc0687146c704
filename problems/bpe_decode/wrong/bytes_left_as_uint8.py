import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    vocab = {b: bytes([b]) for b in range(256)}
    for i, (a, b) in enumerate(merges.tolist()):
        vocab[256 + i] = vocab[a] + vocab[b]
    return np.frombuffer(b"".join(vocab[t] for t in token_ids.tolist()), dtype=np.uint8)
