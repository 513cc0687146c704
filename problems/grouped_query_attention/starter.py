import numpy as np


def grouped_query_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray,
                            mask: np.ndarray | None = None) -> np.ndarray:
    """Scaled dot-product attention in which groups of query heads share a key/value head.

    Args:
        q: float64 array of shape (B, H, L, d), the query heads.
        k: float64 array of shape (B, H_kv, L, d), H a multiple of H_kv.
        v: float64 array of shape (B, H_kv, L, d).
        mask: None, or a float64 additive mask (0 or -inf) that broadcasts against the
            (B, H, L, L) scores.

    Returns:
        A new float64 array of shape (B, H, L, d): query head h attends with key/value
        head h // (H // H_kv). No input is modified.
    """
    raise NotImplementedError("give query head h the key/value head h // (H // H_kv), then attend")
