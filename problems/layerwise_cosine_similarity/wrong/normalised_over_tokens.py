import numpy as np


def layerwise_cosine_similarity(hidden_states):
    # Norms and sums over the token axis instead of the feature axis.
    before, after = hidden_states[:-1], hidden_states[1:]
    dots = np.sum(before * after, axis=-2)
    norms = np.linalg.norm(before, axis=-2) * np.linalg.norm(after, axis=-2)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
