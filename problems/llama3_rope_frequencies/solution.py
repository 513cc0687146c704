import numpy as np


def llama3_rope_frequencies(head_dim: int, base: float, factor: float, low_freq_factor: float,
                            high_freq_factor: float, original_max_len: int) -> np.ndarray:
    """Reference: RoPE's inverse frequencies, rescaled by wavelength as Llama 3.1 does."""
    inv_freq = base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)  # (head_dim // 2,)
    wavelength = 2.0 * np.pi / inv_freq  # positions per full turn of each pair
    short = original_max_len / high_freq_factor  # pairs turning faster than this are kept
    long = original_max_len / low_freq_factor  # pairs turning slower than this are divided by factor
    # Between the two: a blend whose weight on the kept frequency grows linearly in
    # original_max_len / wavelength, from 0 at `long` to 1 at `short`.
    smooth = (original_max_len / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1.0 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelength < short, inv_freq, np.where(wavelength > long, inv_freq / factor, blended))
