import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import rms_norm, apply_rope, grouped_query_attention, swiglu


def llama_block(x: np.ndarray, params: dict, n_heads: int, n_kv_heads: int, positions: np.ndarray,
                eps: float) -> np.ndarray:
    """One Llama decoder block (pre-norm, RMSNorm, RoPE, grouped-query attention, SwiGLU).

    Args:
        x: float64 (B, L, D), the residual stream.
        params: a dict of float64 arrays: "attn_norm" (D,), "w_q" (D, H*d), "w_k" (D, Hkv*d),
            "w_v" (D, Hkv*d), "w_o" (H*d, D), "ffn_norm" (D,), "w_gate" (D, F), "w_up" (D, F),
            "w_down" (F, D).
        n_heads, n_kv_heads: Python ints H and Hkv, Hkv divides H; d = w_q's width / H.
        positions: int64 (L,), the position of each row, used by RoPE only.
        eps: a Python float, RMSNorm's epsilon.

    Returns:
        A new float64 array (B, L, D): h = x + attn(rms_norm(x)), then h + swiglu(rms_norm(h)),
        where attn is causal grouped-query attention (query i sees rows 0..i) with apply_rope's
        rotation applied to the queries and keys at `positions`. No input may be modified.
    """
    raise NotImplementedError("norm, attend with RoPE and shared kv heads, add; norm, SwiGLU, add")
