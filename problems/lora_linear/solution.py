import numpy as np


def lora_linear(x: np.ndarray, weight: np.ndarray, lora_a: np.ndarray, lora_b: np.ndarray,
                alpha: float) -> np.ndarray:
    """Reference: x @ weight + (alpha / r) * (x @ lora_a) @ lora_b, with r = lora_a.shape[1]."""
    rank = lora_a.shape[1]
    # (x @ A) @ B goes through the narrow rank-r layer and never forms the D_in x D_out
    # update; x @ (A @ B) is equal up to rounding.
    update = (x @ lora_a) @ lora_b
    return np.asarray(x @ weight + (alpha / rank) * update, dtype=np.float64)
