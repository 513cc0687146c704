import numpy as np

# Your accepted solution of attention_backward can be imported here:
# from solved import attention_backward


def multi_head_attention_backward(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray,
                                  w_o: np.ndarray, n_heads: int, mask: np.ndarray, grad_out: np.ndarray) -> dict:
    """Gradients of track 1's multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask).

    Args:
        x: float64 (B, L, D); w_q, w_k, w_v, w_o: float64 (D, D); n_heads: a Python int dividing D.
        mask: float64 additive mask of 0 and -inf that broadcasts to (B, H, L, L) (all zeros: no mask).
        grad_out: float64 (B, L, D), the gradient of the loss with respect to the output.

    Returns:
        A dict with the keys "x", "w_q", "w_k", "w_v" and "w_o": new float64 arrays with the shapes
        of those inputs. No input is modified.
    """
    raise NotImplementedError("back through w_o, the merge, each head's attention, the split and the projections")
