import numpy as np


def logit_lens(hidden_states, ln_gamma, ln_beta, w_unembed):
    mean = hidden_states.mean(axis=-1, keepdims=True)
    normed = (hidden_states - mean) / np.sqrt(hidden_states.var(axis=-1, keepdims=True) + 1e-5)
    # The logits are returned as they are: no softmax.
    return (normed * ln_gamma + ln_beta) @ w_unembed
