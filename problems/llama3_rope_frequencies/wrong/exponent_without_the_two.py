import numpy as np


def llama3_rope_frequencies(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    inv_freq = 1.0 / base ** (np.arange(head_dim // 2) / head_dim)
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
