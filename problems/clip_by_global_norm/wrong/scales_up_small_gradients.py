import numpy as np


def clip_by_global_norm(grads, max_norm):
    global_norm = np.sqrt(sum(np.sum(g * g) for g in grads.values()))
    scale = max_norm / global_norm if global_norm > 0 else 1.0
    return {name: g * scale for name, g in grads.items()}
