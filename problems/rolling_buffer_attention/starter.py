import numpy as np


def rolling_buffer_attention(q: np.ndarray, k_buffer: np.ndarray, v_buffer: np.ndarray, pos: int,
                             window: int) -> np.ndarray:
    """One decoding step of sliding-window attention over Mistral's rolling KV cache.

    Args:
        q: float64 (B, H, d), the query of the token at position pos.
        k_buffer, v_buffer: float64 (B, window, H, d); position p's key and value are in slot
            p % window. The token at pos is already written. Slots no position has reached yet
            hold arbitrary numbers.
        pos: a Python int >= 0, the query's position.
        window: a Python int >= 1, the number of slots (k_buffer.shape[1]).

    Returns:
        float64 (B, H, d): softmax(q . k / sqrt(d)) . v over the keys of positions
        max(0, pos - window + 1) .. pos, each head on its own.
    """
    raise NotImplementedError("work out which slots hold the last window positions, then attend to them")
