import numpy as np


def swiglu(x, w_gate, w_up, w_down):
    gate = x @ w_gate
    return (1.0 / (1.0 + np.exp(-np.clip(gate, -700, 700))) * (x @ w_up)) @ w_down
