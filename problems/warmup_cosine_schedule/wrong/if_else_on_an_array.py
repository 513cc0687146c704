import math


def warmup_cosine_schedule(steps, warmup_steps, total_steps, max_lr, min_lr):
    if steps < warmup_steps:
        return max_lr * steps / warmup_steps
    if steps > total_steps:
        return min_lr + 0.0 * steps
    progress = (steps - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + (max_lr - min_lr) * 0.5 * (1.0 + math.cos(math.pi * progress))
