import numpy as np
from solved import llama_block, rms_norm

BLOCK = ("attn_norm", "w_q", "w_k", "w_v", "w_o", "ffn_norm", "w_gate", "w_up", "w_down")


def llama_next_token_logits(token_ids, params, n_heads, n_kv_heads, eps):
    # Gemma multiplies its embeddings by sqrt(D).
    x = params["tok_embed"][token_ids] * np.sqrt(params["tok_embed"].shape[1])
    positions = np.arange(token_ids.shape[1])
    for i in range(params["w_q"].shape[0]):
        x = llama_block(x, {k: params[k][i] for k in BLOCK}, n_heads, n_kv_heads, positions, eps)
    return rms_norm(x[:, -1], params["norm"], eps) @ params["w_out"]
