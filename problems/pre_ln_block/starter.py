import numpy as np

# Once you have solved them, your own accepted solutions can be imported here:
# from solved import layer_norm, multi_head_attention, feed_forward


def pre_ln_block(
    x: np.ndarray,
    ln1_gamma: np.ndarray,
    ln1_beta: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    ln2_gamma: np.ndarray,
    ln2_beta: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    n_heads: int,
    causal: bool,
) -> np.ndarray:
    """One pre-norm transformer block: h = x + MHA(LN1(x)); out = h + FFN(LN2(h)).

    Args:
        x: float64 array of shape (B, L, D), the residual stream.
        ln1_gamma, ln1_beta, ln2_gamma, ln2_beta: float64 arrays of shape (D,), the
            gains and shifts of the two layer norms (eps = 1e-5, biased variance).
        w_q, w_k, w_v, w_o: float64 arrays of shape (D, D), the attention projections
            (no biases), used as in multi_head_attention: split into n_heads heads of
            width D // n_heads, scale by 1 / sqrt(D // n_heads), merge, then @ w_o.
        w1: float64 (D, F), b1: float64 (F,), w2: float64 (F, D), b2: float64 (D,):
            the feed-forward network FFN(u) = GELU(u @ w1 + b1) @ w2 + b2 with the
            exact GELU(z) = 0.5 z (1 + erf(z / sqrt(2))).
        n_heads: a Python int H that divides D.
        causal: a Python bool; when True, position i attends to positions 0..i only.

    Returns:
        A new float64 array of shape (B, L, D). No input may be modified.
    """
    raise NotImplementedError("normalise, attend, add; normalise, feed forward, add")
