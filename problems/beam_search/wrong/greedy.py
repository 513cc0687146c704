import numpy as np


def beam_search(log_probs, start_token, beam_width, steps):
    tokens, score = [start_token], 0.0
    for _ in range(steps):
        nxt = int(np.argmax(log_probs[tokens[-1]]))
        score += log_probs[tokens[-1], nxt]
        tokens.append(nxt)
    return np.array(tokens, dtype=np.int64), np.array(score)
