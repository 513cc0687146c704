import numpy as np


def cls_attention_rollout(attentions: np.ndarray) -> np.ndarray:
    """Attention rollout from the class token.

    Args:
        attentions: float64 array of shape (n_layers, B, H, N + 1, N + 1), the attention
            weights of every layer and head, first layer first; token 0 is the class token
            and every row sums to 1.

    Returns:
        A new float64 array of shape (B, N + 1): row 0 of Â_n ... Â_2 Â_1, where
        Â_l averages layer l's heads, adds the identity and renormalises each row to sum 1.
        The input is not modified.
    """
    raise NotImplementedError("average heads, add I, renormalise rows, multiply later layers on the left, take row 0")
