import numpy as np

EPS = 1e-5


def logit_lens(
    hidden_states: np.ndarray,
    ln_gamma: np.ndarray,
    ln_beta: np.ndarray,
    w_unembed: np.ndarray,
) -> np.ndarray:
    """Reference: read every layer's stream through the final layer norm and the unembedding."""
    # Layer norm over the features of every (layer, sequence, position), biased variance.
    mean = hidden_states.mean(axis=-1, keepdims=True)
    var = ((hidden_states - mean) ** 2).mean(axis=-1, keepdims=True)
    normed = (hidden_states - mean) / np.sqrt(var + EPS) * ln_gamma + ln_beta
    logits = normed @ w_unembed  # (n_layers + 1, B, L, V)
    # Softmax over the vocabulary, shifted by the row maximum so large logits cannot overflow.
    logits = logits - logits.max(axis=-1, keepdims=True)
    weights = np.exp(logits)
    return np.asarray(weights / weights.sum(axis=-1, keepdims=True), dtype=np.float64)
