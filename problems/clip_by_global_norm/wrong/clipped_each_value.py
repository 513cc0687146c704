import numpy as np


def clip_by_global_norm(grads, max_norm):
    return {name: np.clip(g, -max_norm, max_norm) for name, g in grads.items()}
