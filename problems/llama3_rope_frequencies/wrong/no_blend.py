import numpy as np


def llama3_rope_frequencies(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    # Position-interpolation style: only the long wavelengths are stretched, everything else kept.
    inv_freq = base ** (-np.arange(0, head_dim, 2) / head_dim)
    wavelen = 2 * np.pi / inv_freq
    return np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, inv_freq)
