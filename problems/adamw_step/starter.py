import numpy as np


def adamw_step(param: np.ndarray, grad: np.ndarray, m: np.ndarray, v: np.ndarray, step: int, lr: float,
               beta1: float, beta2: float, eps: float, weight_decay: float):
    """One AdamW update, as torch.optim.AdamW computes it.

    Args:
        param, grad, m, v: float64 arrays of one shape: the weight, its gradient, and the first and
            second moments after the previous step (zeros before the first).
        step: the number of this step, counting from 1.
        lr, beta1, beta2, eps, weight_decay: the optimiser's settings, Python floats.

    Returns:
        A tuple (param, m, v) of new float64 arrays: the updated weight and moments.
        No input is modified.
    """
    raise NotImplementedError("decay the weight, update the moments, correct their bias, then step")
