import numpy as np


def decode_with_kv_cache(prompt_ids: np.ndarray, params: dict, n_heads: int, n_new: int) -> np.ndarray:
    """greedy_decode's result, computed with a key/value cache.

    Args:
        prompt_ids: int64 array of shape (B, L), token ids in [0, V).
        params: a dict of float64 arrays holding gpt_next_token_logits' weights under the names
            of its parameters: "w_token_embed", "w_pos_embed", "ln1_gamma", ..., "b2",
            "ln_gamma", "ln_beta", "w_unembed".
        n_heads: a Python int that divides D.
        n_new: a Python int >= 0, the number of tokens to generate.

    Returns:
        A new int64 array of shape (B, L + n_new): each prompt followed by its n_new greedy
        tokens (the lowest id winning a tie), exactly as greedy_decode returns them. The prompt
        goes through the model once; each new token goes through it as a single position whose
        query reads every layer's cached keys and values. No input may be modified.
    """
    raise NotImplementedError("run the prompt once and keep each layer's keys and values, then one position per step")
