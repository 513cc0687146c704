import numpy as np


def softmax_backward(probs, grad_probs, axis):
    weighted = np.sum(grad_probs * probs, axis=axis)
    return probs * (grad_probs - weighted)
