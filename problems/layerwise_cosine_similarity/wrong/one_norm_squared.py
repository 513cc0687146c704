import numpy as np


def layerwise_cosine_similarity(hidden_states):
    before, after = hidden_states[:-1], hidden_states[1:]
    # Divided by |before|^2: the projection of the new vector on the old one, not a cosine.
    squared = np.sum(before * before, axis=-1)
    dots = np.sum(before * after, axis=-1)
    return np.divide(dots, squared, out=np.zeros_like(dots), where=squared > 0)
