import numpy as np


def lora_linear(x: np.ndarray, weight: np.ndarray, lora_a: np.ndarray, lora_b: np.ndarray,
                alpha: float) -> np.ndarray:
    """A linear layer with a LoRA adapter, without biases.

    Args:
        x: float64 array of shape (..., D_in), features last.
        weight: float64 array of shape (D_in, D_out), the frozen pretrained weight.
        lora_a: float64 array of shape (D_in, r), the adapter's down projection.
        lora_b: float64 array of shape (r, D_out), the adapter's up projection.
        alpha: a Python float, the adapter's scaling numerator.

    Returns:
        A new float64 array of shape (..., D_out):
        x @ weight + (alpha / r) * x @ lora_a @ lora_b, with r = lora_a.shape[1].
        No input is modified.
    """
    raise NotImplementedError("the frozen layer plus alpha / r times the low-rank path")
