import numpy as np


def beam_search(log_probs: np.ndarray, start_token: int, beam_width: int, steps: int) -> tuple:
    """Reference: keep the beam_width best sequences, ties to the earlier beam, then the lower token id."""
    sequences = np.array([[start_token]], dtype=np.int64)
    scores = np.zeros(1)
    vocab = log_probs.shape[0]
    for _ in range(steps):
        candidates = scores[:, None] + log_probs[sequences[:, -1]]  # (beams, V), beam-major order
        # A stable sort of the negated scores keeps equal candidates in (beam, token) order.
        best = np.argsort(-candidates.ravel(), kind="stable")[:beam_width]
        beam, token = np.divmod(best, vocab)
        sequences = np.concatenate([sequences[beam], token[:, None]], axis=1)
        scores = candidates.ravel()[best]
    return sequences[0], np.array(scores[0])
