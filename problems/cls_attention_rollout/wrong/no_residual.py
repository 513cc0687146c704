import numpy as np


def cls_attention_rollout(attentions):
    n = attentions.shape[-1]
    mixed = attentions.mean(axis=2)
    rollout = np.broadcast_to(np.eye(n), mixed.shape[1:])
    for layer in mixed:
        rollout = layer @ rollout
    return rollout[:, 0, :]
