import numpy as np


def bpe_decode(token_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    """Turn BPE tokens back into the bytes they stand for.

    Args:
        token_ids: int64 array of shape (k,), ids in [0, 256 + m); k may be 0.
        merges: int64 array of shape (m, 2), as bpe_train returns it: id 256 + i stands for the
            pair merges[i], whose ids may themselves be merges.

    Returns:
        An int64 array of shape (n,), values 0-255: the bytes of every token, expanded down to
        single bytes, in order. No input is modified.
    """
    raise NotImplementedError("build each id's bytes from the merge table, then concatenate")
