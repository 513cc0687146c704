import numpy as np


def warmup_cosine_schedule(steps, warmup_steps, total_steps, max_lr, min_lr):
    progress = np.clip((steps - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = max_lr * 0.5 * (1.0 + np.cos(np.pi * progress))  # the usual cosine schedule
    warmup = max_lr * steps / max(warmup_steps, 1)
    return np.where(steps < warmup_steps, warmup, cosine)
