import numpy as np


def moe_load_balancing_loss(router_logits, k):
    t, e = router_logits.shape
    experts = np.argsort(-router_logits, axis=1, kind="stable")[:, :k]
    chosen = np.take_along_axis(router_logits, experts, axis=1)
    w = np.exp(chosen - chosen[:, :1])
    w = w / w.sum(axis=1, keepdims=True)
    # The router's weights, scattered back: each token's probabilities over its k experts.
    probs = np.zeros((t, e))
    np.put_along_axis(probs, experts, w, axis=1)
    counts = np.bincount(experts.ravel(), minlength=e)
    return np.asarray(e * np.sum(counts / (t * k) * probs.mean(axis=0)))
