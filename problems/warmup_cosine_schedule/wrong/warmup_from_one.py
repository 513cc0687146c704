import numpy as np


def warmup_cosine_schedule(steps, warmup_steps, total_steps, max_lr, min_lr):
    # Step 0 should already learn something: (s + 1) / W reaches max_lr at the last warm-up step.
    progress = np.clip((steps - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = min_lr + (max_lr - min_lr) * 0.5 * (1.0 + np.cos(np.pi * progress))
    warmup = max_lr * (steps + 1) / max(warmup_steps, 1)
    return np.where(steps < warmup_steps, warmup, cosine)
