def cls_token_gradient(grad_sequence):
    return grad_sequence[:, :1, :].copy()  # each image's copy of the token
