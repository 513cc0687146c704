import numpy as np


def token_embedding_backward(token_ids, vocab_size, grad_out):
    # The table is shared by every sequence of the batch, so sum the batch, as for a positional embedding.
    grad = np.zeros((vocab_size, grad_out.shape[-1]))
    grad[: grad_out.shape[1]] += grad_out.sum(axis=0)
    return grad
