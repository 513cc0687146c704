import numpy as np


def layerwise_cosine_similarity(hidden_states):
    before, after = hidden_states[:-1], hidden_states[1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sum(before * after, axis=-1) / (
            np.linalg.norm(before, axis=-1) * np.linalg.norm(after, axis=-1))
