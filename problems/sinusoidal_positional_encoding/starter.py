import numpy as np


def sinusoidal_positional_encoding(length: int, d_model: int) -> np.ndarray:
    """The fixed sine/cosine position table of the original Transformer.

    Args:
        length: number of positions, a plain Python int >= 1; rows are positions 0 .. length - 1.
        d_model: width of each position vector, a plain Python int, even and >= 2.

    Returns:
        A float64 array of shape (length, d_model) with, for i = 0 .. d_model / 2 - 1,
            PE[p, 2 * i]     = sin(p / 10000 ** (2 * i / d_model))
            PE[p, 2 * i + 1] = cos(p / 10000 ** (2 * i / d_model))
    """
    raise NotImplementedError("build the sine/cosine table here")
