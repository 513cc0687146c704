import numpy as np


def warmup_cosine_schedule(steps: np.ndarray, warmup_steps: int, total_steps: int, max_lr: float,
                           min_lr: float) -> np.ndarray:
    """The learning rate at each entry of `steps`: linear warm-up, cosine decay, then constant.

    Args:
        steps: float64 array of any shape (at least 1-D) holding whole numbers >= 0, the
            (0-based) optimiser steps to evaluate the schedule at, in any order.
        warmup_steps: W, a Python int with 0 <= W < total_steps.
        total_steps: T, a Python int, the step at which the decay reaches min_lr.
        max_lr: the peak learning rate, a Python float > 0.
        min_lr: the final learning rate, a Python float with 0 <= min_lr <= max_lr.

    Returns:
        A new float64 array of the shape of `steps`:
            max_lr * s / W                                                  for s < W,
            min_lr + (max_lr - min_lr) * (1 + cos(pi * (s - W) / (T - W))) / 2  for W <= s <= T,
            min_lr                                                          for s > T.
        `steps` is not modified.
    """
    raise NotImplementedError("three pieces, chosen entry by entry (np.where), not with if/else")
