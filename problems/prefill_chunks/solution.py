import numpy as np


def prefill_chunks(prompt_lens: np.ndarray, chunk_size: int, token_budget: int) -> np.ndarray:
    """Reference: chunked prefill's schedule, one row per step, sequences served in index order."""
    remaining = prompt_lens.copy()
    steps = []
    while remaining.sum() > 0:
        budget = token_budget
        taken = np.zeros_like(remaining)
        for b in range(len(remaining)):
            taken[b] = min(remaining[b], chunk_size, budget)
            budget -= taken[b]
        remaining -= taken
        steps.append(taken)
    return np.array(steps, dtype=np.int64).reshape(len(steps), len(prompt_lens))
