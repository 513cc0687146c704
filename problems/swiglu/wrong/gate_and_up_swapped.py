import numpy as np


def swiglu(x, w_gate, w_up, w_down):
    up = x @ w_up
    return (up / (1.0 + np.exp(-np.clip(up, -700, 700))) * (x @ w_gate)) @ w_down
