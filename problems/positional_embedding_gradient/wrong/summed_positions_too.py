def positional_embedding_gradient(grad_tokens):
    return grad_tokens.sum(axis=(0, 1), keepdims=True)
