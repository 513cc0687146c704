import numpy as np


def bpe_train(byte_ids: np.ndarray, n_merges: int) -> np.ndarray:
    ids = byte_ids.astype(np.int64)
    merges = []
    for step in range(n_merges):
        if ids.size < 2:
            break
        # Count the pairs with np.unique: it sorts them, so argmax picks the smallest pair of a tie.
        pairs, counts = np.unique(np.stack([ids[:-1], ids[1:]], axis=1), axis=0, return_counts=True)
        a, b = pairs[np.argmax(counts)]
        merges.append((int(a), int(b)))
        out, i = [], 0
        while i < ids.size:
            if i + 1 < ids.size and ids[i] == a and ids[i + 1] == b:
                out.append(256 + step)
                i += 2
            else:
                out.append(int(ids[i]))
                i += 1
        ids = np.array(out, dtype=np.int64)
    return np.array(merges, dtype=np.int64).reshape(len(merges), 2)
