import numpy as np


def moe_load_balancing_loss(router_logits, k):
    # As in Hugging Face's load_balancing_loss_func: the mean of the (T, k, E) one-hot mask over tokens.
    t, e = router_logits.shape
    top = np.argsort(-router_logits, axis=1, kind="stable")[:, :k]
    mask = np.zeros((t, k, e))
    mask[np.arange(t)[:, None], np.arange(k)[None, :], top] = 1.0
    tokens_per_expert = mask.mean(axis=0)  # (k, E)
    z = router_logits - router_logits.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    return np.asarray(np.sum(tokens_per_expert * probs.mean(axis=0)[None, :]) * e)
