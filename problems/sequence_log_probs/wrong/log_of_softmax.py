import numpy as np


def sequence_log_probs(logits: np.ndarray, token_ids: np.ndarray, loss_mask: np.ndarray) -> np.ndarray:
    scores = logits[:, :-1]
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    probs = weights / weights.sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(probs, token_ids[:, 1:, None], axis=-1)[..., 0]
    return (np.log(picked) * loss_mask[:, 1:]).sum(axis=-1)  # log(0) = -inf far below the maximum
