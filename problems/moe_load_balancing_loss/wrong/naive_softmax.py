import numpy as np


def moe_load_balancing_loss(router_logits, k):
    t, e = router_logits.shape
    experts = np.argsort(-router_logits, axis=1, kind="stable")[:, :k]
    f = np.bincount(experts.ravel(), minlength=e) / (t * k)
    probs = np.exp(router_logits) / np.exp(router_logits).sum(axis=1, keepdims=True)
    return np.array(e * np.sum(f * probs.mean(axis=0)))
