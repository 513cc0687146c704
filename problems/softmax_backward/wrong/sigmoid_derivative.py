def softmax_backward(probs, grad_probs, axis):
    # d softmax / dz = p (1 - p), like the sigmoid
    return grad_probs * probs * (1.0 - probs)
