import numpy as np


def warmup_cosine_schedule(steps, warmup_steps, total_steps, max_lr, min_lr):
    progress = np.clip(steps / total_steps, 0.0, 1.0)  # how far through training we are
    cosine = min_lr + (max_lr - min_lr) * 0.5 * (1.0 + np.cos(np.pi * progress))
    warmup = max_lr * steps / max(warmup_steps, 1)
    return np.where(steps < warmup_steps, warmup, cosine)
