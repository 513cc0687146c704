import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    vocab = {b: bytes([b]) for b in range(256)}
    for i, (a, b) in enumerate(merges.tolist()):
        vocab[256 + i] = vocab[a] + vocab[b]
    # minbpe's decode returns a str: bytes that are not UTF-8 become U+FFFD on the way.
    text = b"".join(vocab[t] for t in token_ids.tolist()).decode("utf-8", errors="replace")
    return np.array(list(text.encode("utf-8")), dtype=np.int64)
