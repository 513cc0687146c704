import numpy as np


def linear_backward(x: np.ndarray, weight: np.ndarray, grad_out: np.ndarray):
    d_in, d_out = weight.shape
    # Every leading index (batch, position, ...) is one row that used the same weight and bias.
    rows_x = x.reshape(-1, d_in)
    rows_g = grad_out.reshape(-1, d_out)
    grad_x = grad_out @ weight.T
    grad_weight = rows_x.T @ rows_g
    grad_bias = rows_g.sum(axis=0)
    return grad_x, grad_weight, grad_bias
