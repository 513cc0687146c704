import numpy as np


def token_embedding_backward(token_ids, vocab_size, grad_out):
    grad = np.zeros((vocab_size, grad_out.shape[-1]))
    grad[token_ids.astype(np.int64)] += grad_out  # add each position's gradient to its token's row
    return grad
