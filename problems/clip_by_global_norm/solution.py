import numpy as np


def clip_by_global_norm(grads, max_norm):
    global_norm = np.sqrt(sum(np.sum(g * g) for g in grads.values()))
    scale = 1.0 if global_norm <= max_norm else max_norm / global_norm
    return {name: g * scale for name, g in grads.items()}
