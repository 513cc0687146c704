import numpy as np


def bpe_encode(byte_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    new_id = {(int(a), int(b)): 256 + i for i, (a, b) in enumerate(merges)}
    ids = [int(b) for b in byte_ids]
    # One left-to-right pass that merges the first pair it meets, gluing each new token
    # onto the next one while that pair is a merge too.
    out = []
    for token in ids:
        out.append(token)
        while len(out) >= 2 and (out[-2], out[-1]) in new_id:
            pair = (out.pop(-2), out.pop())
            out.append(new_id[pair])
    return np.array(out, dtype=np.int64)
