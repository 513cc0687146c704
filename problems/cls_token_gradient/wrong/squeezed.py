def cls_token_gradient(grad_sequence):
    return grad_sequence[:, 0, :].sum(axis=0)
