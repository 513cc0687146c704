import numpy as np


def sample_next_token(logits, temperature, u):
    return np.argmax(logits / temperature, axis=-1)
