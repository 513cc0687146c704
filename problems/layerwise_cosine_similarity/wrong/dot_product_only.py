import numpy as np


def layerwise_cosine_similarity(hidden_states):
    return np.sum(hidden_states[:-1] * hidden_states[1:], axis=-1)
