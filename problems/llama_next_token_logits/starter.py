import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import llama_block, rms_norm


def llama_next_token_logits(token_ids: np.ndarray, params: dict, n_heads: int, n_kv_heads: int,
                            eps: float) -> np.ndarray:
    """The next token's logits from a whole Llama-style model.

    Args:
        token_ids: int64 (B, L), token ids in [0, V).
        params: a dict of float64 arrays: "tok_embed" (V, D); the block weights of llama_block
            stacked on a leading axis of N layers, "attn_norm" (N, D), "w_q" (N, D, H*d),
            "w_k" (N, D, Hkv*d), "w_v" (N, D, Hkv*d), "w_o" (N, H*d, D), "ffn_norm" (N, D),
            "w_gate" (N, D, F), "w_up" (N, D, F), "w_down" (N, F, D); the final "norm" (D,);
            the output head "w_out" (D, V).
        n_heads, n_kv_heads: Python ints H and Hkv.
        eps: a Python float, every RMSNorm's epsilon.

    Returns:
        A new float64 array (B, V): the logits at the last position, after the N blocks (at
        positions 0..L-1), the final RMSNorm and w_out. No input may be modified.
    """
    raise NotImplementedError("look up the embeddings, run the N blocks, normalise the last row, project with w_out")
