import numpy as np


def sequence_log_probs(logits: np.ndarray, token_ids: np.ndarray, loss_mask: np.ndarray) -> np.ndarray:
    """Reference: log-softmax of the logits at t, read at token t + 1, masked and summed."""
    scores = logits[:, :-1]  # (B, L - 1, V): position t predicts token t + 1
    targets = token_ids[:, 1:]  # (B, L - 1)
    top = scores.max(axis=-1, keepdims=True)
    log_norm = top[..., 0] + np.log(np.exp(scores - top).sum(axis=-1))  # log-sum-exp, shifted
    picked = np.take_along_axis(scores, targets[..., None], axis=-1)[..., 0]
    return np.asarray(((picked - log_norm) * loss_mask[:, 1:]).sum(axis=-1), dtype=np.float64)
