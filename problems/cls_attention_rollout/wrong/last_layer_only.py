import numpy as np


def cls_attention_rollout(attentions):
    # The class token's attention in the last layer, averaged over heads.
    return attentions[-1].mean(axis=1)[:, 0, :]
