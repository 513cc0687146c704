import numpy as np


def repetition_penalty_logits(logits, prev_ids, penalty):
    ids = np.unique(prev_ids)  # the tokens of all sequences together
    out = logits.copy()
    seen = out[:, ids]
    out[:, ids] = np.where(seen < 0, seen * penalty, seen / penalty)
    return out
