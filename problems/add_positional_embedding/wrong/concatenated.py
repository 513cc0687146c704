import numpy as np


def add_positional_embedding(tokens: np.ndarray, pos_embed: np.ndarray) -> np.ndarray:
    positions = np.broadcast_to(pos_embed, tokens.shape)
    return np.concatenate([tokens, positions], axis=-1)
