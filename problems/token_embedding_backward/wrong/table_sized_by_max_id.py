import numpy as np


def token_embedding_backward(token_ids, vocab_size, grad_out):
    ids = token_ids.astype(np.int64)
    grad = np.zeros((int(ids.max()) + 1, grad_out.shape[-1]))  # one row per token id that occurs
    np.add.at(grad, ids, grad_out)
    return grad
