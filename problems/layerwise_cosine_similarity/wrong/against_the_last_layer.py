import numpy as np


def layerwise_cosine_similarity(hidden_states):
    # Every layer compared with the final representation, as a logit-lens plot would.
    before, after = hidden_states[:-1], hidden_states[-1:]
    dots = np.sum(before * after, axis=-1)
    norms = np.linalg.norm(before, axis=-1) * np.linalg.norm(after, axis=-1)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
