import numpy as np


def clip_by_global_norm(grads, max_norm):
    return {name: g * min(1.0, max_norm / max(np.linalg.norm(g), 1e-300)) for name, g in grads.items()}
