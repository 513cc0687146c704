import math

import numpy as np


def llama3_rope_frequencies(head_dim, base, factor, low_freq_factor, high_freq_factor, original_max_len):
    freqs = []
    for i in range(0, head_dim, 2):
        freq = 1.0 / base ** (i / head_dim)
        wavelen = 2 * math.pi / freq
        if wavelen < original_max_len / high_freq_factor:
            freqs.append(freq)
        elif wavelen > original_max_len / low_freq_factor:
            freqs.append(freq * factor)
        else:
            smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            freqs.append((1 - smooth) * freq * factor + smooth * freq)
    return np.array(freqs)
