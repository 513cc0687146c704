import numpy as np


def sample_next_token(logits: np.ndarray, temperature: float, u: np.ndarray) -> np.ndarray:
    """Reference: the first token whose cumulative probability exceeds u, per row."""
    scaled = logits / temperature
    shifted = scaled - scaled.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    probs = weights / weights.sum(axis=-1, keepdims=True)
    cumulative = np.cumsum(probs, axis=-1)
    # The number of tokens whose cumulative probability is <= u is the index of the first that exceeds it;
    # rounding can leave the last sum a hair under 1, so stay on the last token of positive probability.
    index = np.sum(cumulative <= u[:, None], axis=-1)
    last = probs.shape[-1] - 1 - np.argmax(probs[:, ::-1] > 0, axis=-1)
    return np.minimum(index, last).astype(np.int64)
