import numpy as np


def layerwise_cosine_similarity(hidden_states: np.ndarray) -> np.ndarray:
    """Reference: cos(h[l], h[l + 1]) for every token; 0 where either vector is all zeros."""
    before, after = hidden_states[:-1], hidden_states[1:]
    dots = np.sum(before * after, axis=-1)
    norms = np.linalg.norm(before, axis=-1) * np.linalg.norm(after, axis=-1)
    # Divide only where the product of norms is non-zero; elsewhere the cosine is defined as 0.
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
