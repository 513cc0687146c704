import numpy as np


def prefill_chunks(prompt_lens: np.ndarray, chunk_size: int, token_budget: int) -> np.ndarray:
    """Chunked prefill's schedule.

    Args:
        prompt_lens: int64 array of shape (B,), each prompt's length in tokens (0 allowed).
        chunk_size: a Python int >= 1, the most tokens one sequence may prefill in one step.
        token_budget: a Python int >= 1, the most tokens all sequences together may prefill in one step.

    Returns:
        An int64 array of shape (S, B): row s holds how many prompt tokens each sequence
        prefills in step s. In every step the sequences, in index order from 0, each take
        min(tokens left in its prompt, chunk_size, budget left in the step); steps repeat
        until every prompt is consumed (S = 0 when every prompt is empty).
    """
    raise NotImplementedError("loop over steps; in each, serve the sequences in index order within the budget")
