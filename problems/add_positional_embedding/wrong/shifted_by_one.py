import numpy as np


def add_positional_embedding(tokens: np.ndarray, pos_embed: np.ndarray) -> np.ndarray:
    # "Positions are for patches; the class token has no place in the image."
    out = tokens.copy()
    out[:, 1:, :] += pos_embed[:, :-1, :]
    return out
