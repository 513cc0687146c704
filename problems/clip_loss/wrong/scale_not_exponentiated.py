import numpy as np


def _ce(logits):
    top = logits.max(axis=1, keepdims=True)
    return (top[:, 0] + np.log(np.exp(logits - top).sum(axis=1)) - np.diagonal(logits)).mean()


def clip_loss(image_embeds, text_embeds, logit_scale):
    images = image_embeds / np.linalg.norm(image_embeds, axis=1, keepdims=True)
    texts = text_embeds / np.linalg.norm(text_embeds, axis=1, keepdims=True)
    logits = logit_scale * images @ texts.T  # the log of the scale used as the scale
    return np.asarray((_ce(logits) + _ce(logits.T)) / 2, dtype=np.float64)
