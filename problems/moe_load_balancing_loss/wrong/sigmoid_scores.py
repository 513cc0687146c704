import numpy as np


def moe_load_balancing_loss(router_logits, k):
    # DeepSeek-V3's gate scores each expert with a sigmoid, then normalises over the experts.
    t, e = router_logits.shape
    experts = np.argsort(-router_logits, axis=1, kind="stable")[:, :k]
    f = np.bincount(experts.ravel(), minlength=e) / (t * k)
    scores = 1.0 / (1.0 + np.exp(-router_logits))
    p = (scores / scores.sum(axis=1, keepdims=True)).mean(axis=0)
    return np.array(e * np.sum(f * p))
