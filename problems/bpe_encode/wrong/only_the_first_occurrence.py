import numpy as np


def bpe_encode(byte_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    ids = [int(b) for b in byte_ids]
    for i, (a, b) in enumerate(merges.tolist()):
        # Replace the first place the pair occurs, then move on to the next merge.
        for j in range(len(ids) - 1):
            if ids[j] == a and ids[j + 1] == b:
                ids[j:j + 2] = [256 + i]
                break
    return np.array(ids, dtype=np.int64)
