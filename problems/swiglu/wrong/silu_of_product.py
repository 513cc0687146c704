import numpy as np


def swiglu(x, w_gate, w_up, w_down):
    product = (x @ w_gate) * (x @ w_up)
    return (product / (1.0 + np.exp(-np.clip(product, -700, 700)))) @ w_down
