import numpy as np


def causal_mask(length):
    mask = np.triu(np.full((length, length), -np.inf), k=1)
    return mask[None, None, :, :]  # (1, 1, L, L), ready for (B, H, L, L) scores
