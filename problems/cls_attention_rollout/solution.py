import numpy as np


def cls_attention_rollout(attentions: np.ndarray) -> np.ndarray:
    """Reference: the class token's row of Â_n ... Â_1, Â = rownorm(mean_heads(A) + I)."""
    n_tokens = attentions.shape[-1]
    mixed = attentions.mean(axis=2) + np.eye(n_tokens)  # (n_layers, B, N + 1, N + 1)
    mixed = mixed / mixed.sum(axis=-1, keepdims=True)
    rollout = np.broadcast_to(np.eye(n_tokens), mixed.shape[1:])
    for layer in mixed:
        # Later layers multiply from the left: row i of the product says how much token i's
        # output at this depth draws, through every path, from each input token.
        rollout = layer @ rollout
    return np.asarray(rollout[:, 0, :], dtype=np.float64)
