import numpy as np


def _ce(logits):
    top = logits.max(axis=1, keepdims=True)
    return (top[:, 0] + np.log(np.exp(logits - top).sum(axis=1)) - np.diagonal(logits)).mean()


def clip_loss(image_embeds, text_embeds, logit_scale):
    # The norm taken down each column (over the batch) instead of along each embedding.
    images = image_embeds / np.linalg.norm(image_embeds, axis=0, keepdims=True)
    texts = text_embeds / np.linalg.norm(text_embeds, axis=0, keepdims=True)
    logits = np.exp(logit_scale) * images @ texts.T
    return np.asarray((_ce(logits) + _ce(logits.T)) / 2, dtype=np.float64)
