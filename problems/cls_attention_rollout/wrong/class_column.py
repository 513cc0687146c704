import numpy as np


def cls_attention_rollout(attentions):
    n = attentions.shape[-1]
    mixed = attentions.mean(axis=2) + np.eye(n)
    mixed = mixed / mixed.sum(axis=-1, keepdims=True)
    rollout = np.broadcast_to(np.eye(n), mixed.shape[1:])
    for layer in mixed:
        rollout = layer @ rollout
    return rollout[:, :, 0]  # how much every token draws from the class token
