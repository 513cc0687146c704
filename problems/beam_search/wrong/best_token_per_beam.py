import numpy as np


def beam_search(log_probs, start_token, beam_width, steps):
    # The first step branches into the beam_width best tokens; after that each beam follows its own best token.
    first = np.argsort(-log_probs[start_token], kind="stable")[:beam_width]
    sequences = [[start_token, int(t)] for t in first]
    scores = [float(log_probs[start_token, t]) for t in first]
    for _ in range(steps - 1):
        for i, sequence in enumerate(sequences):
            nxt = int(np.argmax(log_probs[sequence[-1]]))
            scores[i] += log_probs[sequence[-1], nxt]
            sequence.append(nxt)
    best = int(np.argmax(scores))
    return np.array(sequences[best], dtype=np.int64), np.array(scores[best])
