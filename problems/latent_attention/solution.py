import numpy as np


def latent_attention(x: np.ndarray, w_dkv: np.ndarray, w_uk: np.ndarray, w_uv: np.ndarray, w_q: np.ndarray,
                     w_o: np.ndarray, n_heads: int) -> np.ndarray:
    """Reference: causal multi-head attention whose keys and values are up-projected from one latent per token."""
    batch, length, _ = x.shape

    def heads(t: np.ndarray) -> np.ndarray:  # (B, L, H*w) -> (B, H, L, w)
        return t.reshape(batch, length, n_heads, -1).transpose(0, 2, 1, 3)

    latent = x @ w_dkv  # (B, L, r): all a decoder would cache
    q, k, v = heads(x @ w_q), heads(latent @ w_uk), heads(latent @ w_uv)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # (B, H, L, L)
    scores = scores + np.triu(np.full((length, length), -np.inf), k=1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    out = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1)  # (B, L, H*d_v)
    return np.asarray(out @ w_o, dtype=np.float64)
