import numpy as np


def token_embedding_backward(token_ids, vocab_size, grad_out):
    grad = np.zeros((vocab_size, grad_out.shape[-1]))
    np.add.at(grad, token_ids, grad_out)
    return grad
