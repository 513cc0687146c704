def softmax_backward(probs, grad_probs, axis):
    return probs * grad_probs
