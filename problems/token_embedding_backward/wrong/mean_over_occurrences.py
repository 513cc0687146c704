import numpy as np


def token_embedding_backward(token_ids, vocab_size, grad_out):
    ids = token_ids.astype(np.int64).ravel()
    grad = np.zeros((vocab_size, grad_out.shape[-1]))
    np.add.at(grad, ids, grad_out.reshape(-1, grad_out.shape[-1]))
    counts = np.bincount(ids, minlength=vocab_size)
    return grad / np.maximum(counts, 1)[:, None]  # average the gradients a token received
