import numpy as np


def llama3_rope_frequencies(head_dim: int, base: float, factor: float, low_freq_factor: float,
                            high_freq_factor: float, original_max_len: int) -> np.ndarray:
    """RoPE's inverse frequencies with Llama 3.1's long-context scaling.

    Args:
        head_dim: a Python int, even: the width of one attention head.
        base: a Python float, RoPE's base (10000 in Llama 2, 500000 in Llama 3).
        factor: a Python float >= 1, how much longer the new context is than the trained one.
        low_freq_factor, high_freq_factor: Python floats, 0 < low_freq_factor < high_freq_factor:
            they set the two wavelengths original_max_len / low_freq_factor (longer: divided by
            factor) and original_max_len / high_freq_factor (shorter: kept) between which the
            frequencies are blended.
        original_max_len: a Python int, the context length the model was trained on.

    Returns:
        A float64 array of shape (head_dim // 2,): pair i's inverse frequency
        base ** (-2i / head_dim), kept, divided by factor, or blended, by its wavelength
        2 * pi / frequency.
    """
    raise NotImplementedError("compute base ** (-2i / d), then rescale each frequency by its wavelength")
