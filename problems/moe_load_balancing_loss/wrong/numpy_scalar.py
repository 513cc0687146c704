import numpy as np


def moe_load_balancing_loss(router_logits, k):
    t, e = router_logits.shape
    experts = np.argsort(-router_logits, axis=1, kind="stable")[:, :k]
    f = np.bincount(experts.ravel(), minlength=e) / (t * k)
    z = np.exp(router_logits - router_logits.max(axis=1, keepdims=True))
    p = (z / z.sum(axis=1, keepdims=True)).mean(axis=0)
    return e * np.sum(f * p)
