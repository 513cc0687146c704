import numpy as np


def sequence_log_probs(logits: np.ndarray, token_ids: np.ndarray, loss_mask: np.ndarray) -> np.ndarray:
    # Position t's logits read at token t itself.
    top = logits.max(axis=-1, keepdims=True)
    log_probs = logits - top - np.log(np.exp(logits - top).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, token_ids[..., None], axis=-1)[..., 0]
    return (picked * loss_mask).sum(axis=-1)
