import numpy as np


def _mean_cross_entropy_on_diagonal(logits: np.ndarray) -> float:
    # Row i's label is column i: the mean of logsumexp(row) - row[i], after the max shift.
    top = logits.max(axis=1, keepdims=True)
    log_sums = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
    return float((log_sums - np.diagonal(logits)).mean())


def clip_loss(image_embeds: np.ndarray, text_embeds: np.ndarray, logit_scale: float) -> np.ndarray:
    """Reference: CLIP's symmetric cross-entropy over cosine similarities times exp(logit_scale)."""
    images = image_embeds / np.linalg.norm(image_embeds, axis=1, keepdims=True)
    texts = text_embeds / np.linalg.norm(text_embeds, axis=1, keepdims=True)
    logits = np.exp(logit_scale) * (images @ texts.T)  # (N, N): image i against text j
    loss = (_mean_cross_entropy_on_diagonal(logits) + _mean_cross_entropy_on_diagonal(logits.T)) / 2
    return np.asarray(loss, dtype=np.float64)
