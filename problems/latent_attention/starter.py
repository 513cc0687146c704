import numpy as np


def latent_attention(x: np.ndarray, w_dkv: np.ndarray, w_uk: np.ndarray, w_uv: np.ndarray, w_q: np.ndarray,
                     w_o: np.ndarray, n_heads: int) -> np.ndarray:
    """DeepSeek-V2's multi-head latent attention, without its decoupled RoPE part.

    Args:
        x: float64 (B, L, D), the token vectors.
        w_dkv: float64 (D, r), the down-projection to the latent c = x @ w_dkv, (B, L, r).
        w_uk: float64 (r, H * d), the keys c @ w_uk; w_uv: float64 (r, H * d_v), the values c @ w_uv.
        w_q: float64 (D, H * d), the queries x @ w_q.
        w_o: float64 (H * d_v, D), the output projection of the concatenated heads.
        n_heads: a Python int H; head h uses columns h * d .. (h + 1) * d of q and k
            (h * d_v .. (h + 1) * d_v of v).

    Returns:
        A new float64 array (B, L, D): causal attention in every head (query i sees keys 0..i,
        scores scaled by 1 / sqrt(d)), the heads concatenated and projected by w_o. No input may
        be modified.
    """
    raise NotImplementedError("compress x to the latent, expand it to keys and values, attend causally per head")
