import numpy as np


def swiglu(x, w_gate, w_up, w_down):
    gate = x @ w_gate
    with np.errstate(over="ignore", invalid="ignore"):
        sigmoid = np.exp(gate) / (1.0 + np.exp(gate))
    return (gate * sigmoid * (x @ w_up)) @ w_down
