import numpy as np


def llama3_rope_frequencies(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    inv_freq = 1.0 / base ** (np.arange(0, head_dim, 2) / head_dim)
    wavelen = 1.0 / inv_freq
    low_wavelen = original_max_len / low_freq_factor
    high_wavelen = original_max_len / high_freq_factor
    out = inv_freq.copy()
    out[wavelen > low_wavelen] = inv_freq[wavelen > low_wavelen] / factor
    mid = (wavelen >= high_wavelen) & (wavelen <= low_wavelen)
    s = (original_max_len / wavelen[mid] - low_freq_factor) / (high_freq_factor - low_freq_factor)
    out[mid] = (1 - s) * inv_freq[mid] / factor + s * inv_freq[mid]
    return out
