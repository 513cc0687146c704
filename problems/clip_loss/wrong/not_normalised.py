import numpy as np


def _ce(logits):
    top = logits.max(axis=1, keepdims=True)
    return (top[:, 0] + np.log(np.exp(logits - top).sum(axis=1)) - np.diagonal(logits)).mean()


def clip_loss(image_embeds, text_embeds, logit_scale):
    logits = np.exp(logit_scale) * image_embeds @ text_embeds.T  # dot products, not cosines
    return np.asarray((_ce(logits) + _ce(logits.T)) / 2, dtype=np.float64)
