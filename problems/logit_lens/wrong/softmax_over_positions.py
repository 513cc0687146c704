import numpy as np


def logit_lens(hidden_states, ln_gamma, ln_beta, w_unembed):
    mean = hidden_states.mean(axis=-1, keepdims=True)
    normed = (hidden_states - mean) / np.sqrt(hidden_states.var(axis=-1, keepdims=True) + 1e-5)
    logits = (normed * ln_gamma + ln_beta) @ w_unembed
    # Normalised along the sequence axis instead of the vocabulary.
    logits = logits - logits.max(axis=2, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=2, keepdims=True)
