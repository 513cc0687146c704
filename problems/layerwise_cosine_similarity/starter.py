import numpy as np


def layerwise_cosine_similarity(hidden_states: np.ndarray) -> np.ndarray:
    """How much each layer turns each token's representation.

    Args:
        hidden_states: float64 array of shape (n_layers + 1, B, L, D): the residual
            stream before the first layer (index 0) and after every layer.

    Returns:
        A new float64 array of shape (n_layers, B, L): entry (l, b, i) is the cosine of
        the angle between token i's vector before layer l + 1 and after it, that is
        between hidden_states[l, b, i] and hidden_states[l + 1, b, i]; 0 where either
        vector is all zeros. The input is not modified.
    """
    raise NotImplementedError("dot product of consecutive layers over D, divided by both norms")
