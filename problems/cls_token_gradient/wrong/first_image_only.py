def cls_token_gradient(grad_sequence):
    # The token has batch size 1, like image 0.
    return grad_sequence[:1, :1, :].copy()
