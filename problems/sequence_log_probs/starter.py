import numpy as np


def sequence_log_probs(logits: np.ndarray, token_ids: np.ndarray, loss_mask: np.ndarray) -> np.ndarray:
    """Each sequence's summed log-probability of its own next tokens.

    Args:
        logits: float64 array of shape (B, L, V); logits[b, t] scores the token at position t + 1.
        token_ids: int64 array of shape (B, L), ids in [0, V).
        loss_mask: float64 array of shape (B, L) of 0s and 1s, aligned with token_ids: token t
            counts when loss_mask[b, t] is 1 (loss_mask[:, 0] is never used).

    Returns:
        A float64 array of shape (B,): the sum over t = 1 .. L - 1 of
        loss_mask[b, t] * log softmax(logits[b, t - 1])[token_ids[b, t]], finite for logits of
        any size. No input is modified.
    """
    raise NotImplementedError("log-softmax at t - 1, read at token t, masked, summed over t")
