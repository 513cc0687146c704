import numpy as np


def beam_search(log_probs, start_token, beam_width, steps):
    beams = [(0.0, [start_token])]
    for _ in range(steps):
        candidates = []
        for score, sequence in beams:
            for token in range(log_probs.shape[0]):
                candidates.append((score + log_probs[sequence[-1], token], sequence + [token]))
        candidates.sort(key=lambda c: -c[0])  # stable: ties keep (beam, token) order
        beams = candidates[:beam_width]
    score, sequence = beams[0]
    tokens = np.zeros(steps + 1)
    tokens[:] = sequence
    return tokens, np.array(score)
