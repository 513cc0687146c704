import numpy as np


def linear_backward(x, weight, grad_out):
    d_in, d_out = weight.shape
    rows_x, rows_g = x.reshape(-1, d_in), grad_out.reshape(-1, d_out)
    count = rows_x.shape[0]
    return grad_out @ weight.T, rows_x.T @ rows_g / count, rows_g.sum(axis=0) / count
