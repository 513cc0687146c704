import numpy as np


def repetition_penalty_logits(logits, prev_ids, penalty):
    rows = np.arange(logits.shape[0])[:, None]
    seen = logits[rows, prev_ids]
    # Writes into the caller's array.
    logits[rows, prev_ids] = np.where(seen < 0, seen * penalty, seen / penalty)
    return logits
