import numpy as np


def sequence_log_probs(logits: np.ndarray, token_ids: np.ndarray, loss_mask: np.ndarray) -> np.ndarray:
    scores = logits[:, :-1]
    top = scores.max(axis=-1, keepdims=True)
    log_probs = scores - top - np.log(np.exp(scores - top).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, token_ids[:, 1:, None], axis=-1)[..., 0]
    return picked * loss_mask[:, 1:]  # (B, L - 1): every token's log-probability
