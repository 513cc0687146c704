import numpy as np


def cross_attention(
    x: np.ndarray,
    context: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    n_heads: int,
) -> np.ndarray:
    """Multi-head cross-attention: queries from x, keys and values from context.

    Args:
        x: float64 array of shape (B, Lq, D), the sequence that asks.
        context: float64 array of shape (B, Lk, D), the sequence that is read.
        w_q: float64 array of shape (D, D), applied to x.
        w_k, w_v: float64 arrays of shape (D, D), applied to context.
        w_o: float64 array of shape (D, D), applied after the heads are merged.
        n_heads: a Python int H that divides D; heads have width D // H and
            are split as (B, L, H, d) -> (B, H, L, d).

    Returns:
        A new float64 array of shape (B, Lq, D): one row per query token.
        No input may be modified.
    """
    raise NotImplementedError("queries from x, keys and values from context, then multi-head attention")
