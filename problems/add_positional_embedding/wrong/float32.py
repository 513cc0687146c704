import numpy as np


def add_positional_embedding(tokens: np.ndarray, pos_embed: np.ndarray) -> np.ndarray:
    return (tokens + pos_embed).astype(np.float32)
