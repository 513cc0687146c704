import numpy as np


def beam_search(log_probs: np.ndarray, start_token: int, beam_width: int, steps: int) -> tuple:
    """Beam search over a bigram model.

    Args:
        log_probs: float64 array (V, V); log_probs[a, b] is the log-probability of token b after token a.
        start_token: a Python int in [0, V), the first token of every sequence.
        beam_width: a Python int >= 1, how many sequences are kept after each step.
        steps: a Python int >= 1, how many tokens are appended.

    Returns:
        (tokens, score): tokens an int64 array of shape (steps + 1,) starting with start_token, the best
        sequence found; score a float64 array of shape () holding the sum of its log-probabilities.
    """
    raise NotImplementedError("extend every kept sequence by every token, keep the beam_width best, repeat")
