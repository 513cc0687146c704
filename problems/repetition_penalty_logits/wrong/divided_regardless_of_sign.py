import numpy as np


def repetition_penalty_logits(logits, prev_ids, penalty):
    rows = np.arange(logits.shape[0])[:, None]
    out = logits.copy()
    # Divides every seen logit: a negative one moves up, towards zero.
    out[rows, prev_ids] = logits[rows, prev_ids] / penalty
    return out
