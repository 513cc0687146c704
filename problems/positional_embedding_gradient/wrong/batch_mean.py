def positional_embedding_gradient(grad_tokens):
    # The loss is a mean over the batch, so its gradient should be too?
    return grad_tokens.mean(axis=0, keepdims=True)
