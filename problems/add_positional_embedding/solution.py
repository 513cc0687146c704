import numpy as np


def add_positional_embedding(tokens: np.ndarray, pos_embed: np.ndarray) -> np.ndarray:
    """Reference: broadcast the (1, L, D) table over the batch axis and add it."""
    # A binary + allocates a new array; += would write into the caller's tokens.
    return np.asarray(tokens + pos_embed, dtype=np.float64)
