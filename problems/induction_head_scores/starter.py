import numpy as np


def induction_head_scores(attention: np.ndarray, seq_len: int) -> np.ndarray:
    """Score every head as an induction head on a repeated random sequence (TransformerLens' score).

    Args:
        attention: float64 array of shape (N, H, 2S, 2S), S = seq_len: N attention patterns
            (one per layer, say) of H heads each, on a sequence whose second half repeats its
            first half. attention[n, h, i, j] is the weight query i gives key j; rows sum to 1.
        seq_len: a Python int >= 1, the length S of the random half.

    Returns:
        A float64 array of shape (N, H): for each pattern and head, the mean over the queries
        i = S .. 2S - 1 of attention[n, h, i, i - S + 1]. attention is not modified.
    """
    raise NotImplementedError("average the stripe attention[..., i, i - S + 1] over the second half's queries")
