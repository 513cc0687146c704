import numpy as np


def linear_backward(x, weight, grad_out):
    d_in, d_out = weight.shape
    rows_x, rows_g = x.reshape(-1, d_in), grad_out.reshape(-1, d_out)
    return grad_out @ weight.T, rows_g.T @ rows_x, rows_g.sum(axis=0)
