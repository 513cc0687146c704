import numpy as np


def linear_backward(x, weight, grad_out):
    return grad_out @ weight.T, x.T @ grad_out, grad_out.sum(axis=0)
