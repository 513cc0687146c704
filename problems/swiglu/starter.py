import numpy as np


def swiglu(x: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray, w_down: np.ndarray) -> np.ndarray:
    """The SwiGLU feed-forward layer of LLaMA-style models, without biases.

    Args:
        x: float64 array of shape (..., D), features last.
        w_gate: float64 array of shape (D, F); its projection goes through SiLU.
        w_up: float64 array of shape (D, F); its projection is multiplied by the gate.
        w_down: float64 array of shape (F, D_out), the projection back.

    Returns:
        A new float64 array of shape (..., D_out): (silu(x @ w_gate) * (x @ w_up)) @ w_down,
        where silu(z) = z * sigmoid(z). No input is modified.
    """
    raise NotImplementedError("gate with SiLU, multiply by the up projection, project down")
