import numpy as np


def layer_norm(x, gamma, beta, eps):
    # normalise every row over the features
    rows = x.reshape(-1, x.shape[-1])
    result = np.empty_like(rows, dtype=np.float64)
    for i, row in enumerate(rows):
        centre = row - row.mean()
        spread = np.sqrt((centre * centre).mean() + eps)
        result[i] = gamma * (centre / spread) + beta
    return result.reshape(x.shape)
