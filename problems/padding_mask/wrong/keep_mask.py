import numpy as np


def padding_mask(lengths, max_len):
    # like Hugging Face's attention_mask: 1 for real tokens, 0 for padding
    positions = np.arange(max_len)
    keep = (positions[None, :] < lengths[:, None]).astype(np.float64)
    return keep[:, None, None, :]
