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

def stack(s, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads, causal=True):
    for l in range(w_q.shape[0]):
        h = s + attention(layer_norm(s, ln1_gamma[l], ln1_beta[l]), w_q[l], w_k[l], w_v[l], w_o[l], n_heads, causal)
        s = h + gelu(layer_norm(h, ln2_gamma[l], ln2_beta[l]) @ w1[l] + b1[l]) @ w2[l] + b2[l]
    return s


def gpt_next_token_logits(token_ids, w_token_embed, w_pos_embed, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta,
                          w1, b1, w2, b2, ln_gamma, ln_beta, w_unembed, n_heads):
    ids = token_ids.astype(int)
    s = stack(w_token_embed[ids] + w_pos_embed[: ids.shape[1]], ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads)
    # Position 0 read out, as a ViT reads its class token.
    return layer_norm(s[:, 0], ln_gamma, ln_beta) @ w_unembed
