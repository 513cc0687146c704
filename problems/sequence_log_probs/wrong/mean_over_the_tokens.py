import numpy as np


def sequence_log_probs(logits: np.ndarray, token_ids: np.ndarray, loss_mask: np.ndarray) -> np.ndarray:
    scores = logits[:, :-1]
    top = scores.max(axis=-1, keepdims=True)
    log_probs = scores - top - np.log(np.exp(scores - top).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, token_ids[:, 1:, None], axis=-1)[..., 0]
    mask = loss_mask[:, 1:]
    # The average per scored token (TRL's average_log_prob), not the sum.
    return (picked * mask).sum(axis=-1) / np.maximum(mask.sum(axis=-1), 1.0)
