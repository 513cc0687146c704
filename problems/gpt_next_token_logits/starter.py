import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import transformer_stack, layer_norm


def gpt_next_token_logits(
    token_ids: np.ndarray,
    w_token_embed: np.ndarray,
    w_pos_embed: np.ndarray,
    ln1_gamma: np.ndarray,
    ln1_beta: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    ln2_gamma: np.ndarray,
    ln2_beta: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    ln_gamma: np.ndarray,
    ln_beta: np.ndarray,
    w_unembed: np.ndarray,
    n_heads: int,
) -> np.ndarray:
    """Logits of the token that follows each sequence, from a GPT-style decoder.

    Args:
        token_ids: float64 (B, L) whole numbers in [0, V), the token ids.
        w_token_embed: float64 (V, D), one row per token; w_pos_embed: float64 (L_max, D),
            one row per position, L <= L_max.
        ln1_gamma ... b2: the stacked block weights, as in transformer_stack
            ((n_layers, D), (n_layers, D, D), (n_layers, D, F), ...); every layer is causal.
        ln_gamma, ln_beta: float64 (D,), the final layer norm (eps = 1e-5).
        w_unembed: float64 (D, V), the unembedding.
        n_heads: a Python int that divides D.

    Returns:
        A new float64 array of shape (B, V): the logits at the last position, before any
        softmax. No input may be modified.
    """
    raise NotImplementedError("embed, add positions, causal stack, final norm, unembed the last position")
