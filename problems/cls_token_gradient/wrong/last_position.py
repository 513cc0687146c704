def cls_token_gradient(grad_sequence):
    return grad_sequence[:, -1:, :].sum(axis=0, keepdims=True)
