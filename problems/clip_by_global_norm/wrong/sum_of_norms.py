import numpy as np


def clip_by_global_norm(grads, max_norm):
    total = sum(np.linalg.norm(g) for g in grads.values())
    scale = 1.0 if total <= max_norm else max_norm / total
    return {name: g * scale for name, g in grads.items()}
