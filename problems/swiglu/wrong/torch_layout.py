import numpy as np


def swiglu(x, w_gate, w_up, w_down):
    # nn.Linear stores its weight as (out_features, in_features) and computes x @ W.T.
    gate = x @ w_gate.T
    return (gate / (1.0 + np.exp(-np.clip(gate, -700, 700))) * (x @ w_up.T)) @ w_down.T
