import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import rms_norm, apply_rope, grouped_query_attention, swiglu


def llama_decode_with_kv_cache(prompt_ids: np.ndarray, params: dict, n_heads: int, n_kv_heads: int, eps: float,
                               n_new: int) -> np.ndarray:
    """Greedy decoding of llama_next_token_logits' model, with a key/value cache.

    Args:
        prompt_ids: int64 (B, L), token ids in [0, V).
        params: a dict of float64 arrays holding llama_next_token_logits' weights under the same
            names: "tok_embed", the stacked block weights "attn_norm" ... "w_down", "norm", "w_out".
        n_heads, n_kv_heads: Python ints H and Hkv.
        eps: a Python float, every RMSNorm's epsilon.
        n_new: a Python int >= 0, the number of tokens to generate.

    Returns:
        A new int64 array (B, L + n_new): each prompt followed by its n_new greedy tokens (the
        lowest id winning a tie), exactly the tokens a full pass at every step would choose. The
        prompt goes through the model once; each new token goes through it as a single row whose
        query reads every layer's cache of rotated keys and values (Hkv heads). No input may be
        modified.
    """
    raise NotImplementedError("run the prompt once, keep each layer's rotated keys and values, then one row per step")
