import numpy as np


def logit_lens(hidden_states, ln_gamma, ln_beta, w_unembed):
    # The raw stream goes straight into the unembedding.
    logits = hidden_states @ w_unembed
    logits = logits - logits.max(axis=-1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=-1, keepdims=True)
