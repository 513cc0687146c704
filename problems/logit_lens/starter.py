import numpy as np


def logit_lens(
    hidden_states: np.ndarray,
    ln_gamma: np.ndarray,
    ln_beta: np.ndarray,
    w_unembed: np.ndarray,
) -> np.ndarray:
    """Read every layer's residual stream as a next-token distribution.

    Args:
        hidden_states: float64 array of shape (n_layers + 1, B, L, D): the stream
            before the first block (index 0) and after each block.
        ln_gamma, ln_beta: float64 arrays of shape (D,), the model's final layer
            norm (eps = 1e-5, biased variance over the last axis).
        w_unembed: float64 array of shape (D, V), the unembedding.

    Returns:
        A new float64 array of shape (n_layers + 1, B, L, V):
        softmax(LN(hidden_states) @ w_unembed) over the last axis.
        No input may be modified.
    """
    raise NotImplementedError("normalise, unembed, softmax over the vocabulary")
