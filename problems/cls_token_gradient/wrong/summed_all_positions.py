def cls_token_gradient(grad_sequence):
    return grad_sequence.sum(axis=(0, 1), keepdims=True)
