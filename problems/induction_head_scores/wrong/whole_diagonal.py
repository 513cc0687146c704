import numpy as np


def induction_head_scores(attention, seq_len):
    # TransformerLens' diagonal(offset=1 - seq_len) taken whole: it starts at query S - 1, in the
    # first half, where there is no earlier occurrence to copy from.
    stripe = np.diagonal(attention, offset=1 - seq_len, axis1=-2, axis2=-1)
    return stripe.mean(axis=-1)
