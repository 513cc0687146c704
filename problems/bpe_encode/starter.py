import numpy as np


def bpe_encode(byte_ids: np.ndarray, merges: np.ndarray) -> np.ndarray:
    """Encode a text's bytes into BPE tokens with learnt merges, as minbpe's encode does.

    Args:
        byte_ids: int64 array of shape (n,), the bytes of a text (values 0-255); n may be 0.
        merges: int64 array of shape (m, 2), as bpe_train returns it: row i is the pair of ids
            that the id 256 + i stands for. m may be 0.

    Returns:
        An int64 array of shape (k,), the token ids: while some adjacent pair of the sequence is a
        merge, the pair of the lowest rank (row) is replaced everywhere, left to right, by its id.
        No input is modified.
    """
    raise NotImplementedError("merge the present pair of the lowest rank, until no pair is a merge")
