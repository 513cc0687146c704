import numpy as np


def add_positional_embedding(tokens: np.ndarray, pos_embed: np.ndarray) -> np.ndarray:
    """Add the learned positional embedding to every sequence in the batch.

    Args:
        tokens: float64 array of shape (B, L, D); index 0 of each sequence is the
            class token and indices 1..L-1 are the patches.
        pos_embed: float64 array of shape (1, L, D), one learned row per index.

    Returns:
        A new float64 array of shape (B, L, D) equal to tokens + pos_embed.
        Neither input may be modified.
    """
    return tokens
