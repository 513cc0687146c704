import numpy as np
from solved import apply_rope, grouped_query_attention, rms_norm, swiglu


def llama_block(x, params, n_heads, n_kv_heads, positions, eps):
    p = params
    b, l, _ = x.shape
    u = rms_norm(x, p["attn_norm"], eps)
    q = apply_rope((u @ p["w_q"]).reshape(b, l, n_heads, -1).transpose(0, 2, 1, 3), positions)
    k = apply_rope((u @ p["w_k"]).reshape(b, l, n_kv_heads, -1).transpose(0, 2, 1, 3), positions)
    v = (u @ p["w_v"]).reshape(b, l, n_kv_heads, -1).transpose(0, 2, 1, 3)
    mask = np.triu(np.full((l, l), -np.inf), 1)
    attn = grouped_query_attention(q, k, v, mask).transpose(0, 2, 1, 3).reshape(b, l, -1) @ p["w_o"]
    h = u + attn  # the residual taken after the norm
    u = rms_norm(h, p["ffn_norm"], eps)
    return u + swiglu(u, p["w_gate"], p["w_up"], p["w_down"])
