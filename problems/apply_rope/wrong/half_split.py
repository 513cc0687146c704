import numpy as np


def apply_rope(x, positions):
    d = x.shape[-1]
    inv_freq = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = positions[:, None] * inv_freq[None, :]
    cos = np.concatenate([np.cos(angles), np.cos(angles)], axis=-1)
    sin = np.concatenate([np.sin(angles), np.sin(angles)], axis=-1)
    # GPT-NeoX / LLaMA layout: coordinate i is paired with i + d/2.
    half = d // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin
