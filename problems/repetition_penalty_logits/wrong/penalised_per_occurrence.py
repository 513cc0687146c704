import numpy as np


def repetition_penalty_logits(logits, prev_ids, penalty):
    out = logits.copy()
    for b in range(prev_ids.shape[0]):
        for token in prev_ids[b]:
            # Applied at every occurrence: a token seen twice is penalised twice.
            if out[b, token] < 0:
                out[b, token] *= penalty
            else:
                out[b, token] /= penalty
    return out
