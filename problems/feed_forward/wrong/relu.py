import numpy as np


def feed_forward(x, w1, b1, w2, b2):
    h = np.maximum(x @ w1 + b1, 0.0)  # ReLU, as in the original Transformer
    return h @ w2 + b2
