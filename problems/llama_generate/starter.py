import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import llama_decode_with_kv_cache, top_p_logits, sample_next_token
# from solved import rms_norm, apply_rope, grouped_query_attention, swiglu


def llama_generate(prompt_ids: np.ndarray, params: dict, n_heads: int, n_kv_heads: int, eps: float, n_new: int,
                   temperature: float, top_p: float, uniforms: np.ndarray) -> np.ndarray:
    """Sample n_new tokens from llama_next_token_logits' model, with a key/value cache.

    Args:
        prompt_ids, params, n_heads, n_kv_heads, eps, n_new: as in llama_decode_with_kv_cache.
        temperature: a Python float > 0; the logits are divided by it.
        top_p: a Python float in (0, 1]; top_p_logits' rule is applied to the tempered logits.
        uniforms: float64 (B, n_new) in [0, 1): uniforms[b, s] draws sequence b's s-th new token.

    Returns:
        A new int64 array (B, L + n_new): each prompt followed by its n_new sampled tokens. Each
        token is the smallest id whose cumulative probability (in id order, under the softmax of
        the filtered, tempered logits) exceeds its uniform. No input may be modified.
    """
    raise NotImplementedError("decode with your cache, but draw each token: temperature, top-p, softmax, inverse CDF")
