import numpy as np


def clip_by_global_norm(grads: dict, max_norm: float) -> dict:
    """Scale every gradient by min(1, max_norm / global_norm).

    Args:
        grads: a dict from weight names ("embedding", "w1", "b1", "gamma") to float64 arrays.
        max_norm: the largest global norm allowed, a positive Python float.

    Returns:
        A new dict with the same keys: each array times the same factor, as new float64 arrays.
        The global norm is the square root of the sum of every entry's square, over all arrays
        together. Neither the dict nor its arrays are modified.
    """
    raise NotImplementedError("one norm over all the arrays, then one factor for all of them")
