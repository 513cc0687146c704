import numpy as np


def warmup_cosine_schedule(steps: np.ndarray, warmup_steps: int, total_steps: int, max_lr: float,
                           min_lr: float) -> np.ndarray:
    """Reference: linear warm-up from 0, a half cosine from max_lr to min_lr, then min_lr."""
    # Clipping the progress to [0, 1] holds the cosine at max_lr before the decay (that part is
    # replaced by the warm-up below) and at min_lr after total_steps: cos(pi) is exactly -1.
    progress = np.clip((steps - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = min_lr + (max_lr - min_lr) * 0.5 * (1.0 + np.cos(np.pi * progress))
    warmup = max_lr * steps / max(warmup_steps, 1)  # only used where steps < warmup_steps, so warmup_steps >= 1
    return np.asarray(np.where(steps < warmup_steps, warmup, cosine), dtype=np.float64)
