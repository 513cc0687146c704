import numpy as np


def bpe_train(byte_ids: np.ndarray, n_merges: int) -> np.ndarray:
    """Learn byte-level BPE merges from one sequence of bytes, as minbpe's basic tokenizer does.

    Args:
        byte_ids: int64 array of shape (n,), the bytes of a text (values 0-255); n may be 0.
        n_merges: a Python int >= 0, the number of merges to learn.

    Returns:
        An int64 array of shape (m, 2), m = n_merges unless fewer than two tokens remain first:
        row i is the pair of ids merged into the new id 256 + i. At each step the pair of adjacent
        tokens that occurs most often in the current sequence is merged (overlapping occurrences
        are counted; a tie goes to the pair that occurs first); every occurrence is replaced left
        to right. byte_ids is not modified.
    """
    raise NotImplementedError("count adjacent pairs, merge the most frequent into 256 + i, repeat")
