import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    """Reference: every id's bytes, built up the merge table, then concatenated."""
    pieces = [bytes([b]) for b in range(256)]
    for a, b in merges.tolist():  # a row only uses ids made before it
        pieces.append(pieces[a] + pieces[b])
    data = b"".join(pieces[t] for t in token_ids.tolist())
    return np.frombuffer(data, dtype=np.uint8).astype(np.int64)
