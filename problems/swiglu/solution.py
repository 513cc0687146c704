import numpy as np


def _silu(z: np.ndarray) -> np.ndarray:
    # z * sigmoid(z), with the sigmoid written so that exp never sees a large positive
    # argument: exp(-|z|) lies in (0, 1], and the two branches agree where they meet.
    e = np.exp(-np.abs(z))
    sigmoid = np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    return z * sigmoid


def swiglu(x: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray, w_down: np.ndarray) -> np.ndarray:
    """Reference: (silu(x @ w_gate) * (x @ w_up)) @ w_down, token by token."""
    hidden = _silu(x @ w_gate) * (x @ w_up)
    return np.asarray(hidden @ w_down, dtype=np.float64)
