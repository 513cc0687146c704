import numpy as np


def moe_load_balancing_loss(router_logits, k):
    t, e = router_logits.shape
    experts = np.argsort(router_logits, axis=1)[:, ::-1][:, :k]
    f = np.zeros(e)
    for row in experts:
        for expert in row:
            f[expert] += 1
    f /= t * k
    z = np.exp(router_logits - router_logits.max(axis=1, keepdims=True))
    p = (z / z.sum(axis=1, keepdims=True)).mean(axis=0)
    return np.array(e * (f * p).sum())
