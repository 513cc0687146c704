import numpy as np


def logit_lens(hidden_states, ln_gamma, ln_beta, w_unembed):
    mean = hidden_states.mean(axis=-1, keepdims=True)
    # ddof=1, as torch.var defaults to: divides by D - 1 instead of D.
    std = np.sqrt(hidden_states.var(axis=-1, ddof=1, keepdims=True) + 1e-5)
    logits = ((hidden_states - mean) / std * ln_gamma + ln_beta) @ w_unembed
    logits = logits - logits.max(axis=-1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=-1, keepdims=True)
