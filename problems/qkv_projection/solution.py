import numpy as np


def qkv_projection(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    """Reference: three matrix products, stacked on a new leading axis."""
    # (B, L, D) @ (D, d_k) -> (B, L, d_k); @ broadcasts the weight over the batch.
    projections = [x @ w for w in (w_q, w_k, w_v)]
    # np.stack allocates a new (3, B, L, d_k) array; the inputs are never written.
    return np.stack(projections, axis=0).astype(np.float64, copy=False)
