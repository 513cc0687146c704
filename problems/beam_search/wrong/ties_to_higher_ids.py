import numpy as np


def beam_search(log_probs, start_token, beam_width, steps):
    sequences = np.array([[start_token]], dtype=np.int64)
    scores = np.zeros(1)
    vocab = log_probs.shape[0]
    for _ in range(steps):
        candidates = (scores[:, None] + log_probs[sequences[:, -1]]).ravel()
        best = np.argsort(candidates)[::-1][:beam_width]  # descending, but equal scores come out last index first
        beam, token = np.divmod(best, vocab)
        sequences = np.concatenate([sequences[beam], token[:, None]], axis=1)
        scores = candidates[best]
    return sequences[0], np.array(scores[0])
