import numpy as np


def prefill_chunks(prompt_lens, chunk_size, token_budget):
    remaining = prompt_lens.astype(float)
    steps = []
    while remaining.sum() > 0:
        budget = token_budget
        taken = np.zeros(len(remaining))  # float64: the counts come back as 3.0, not 3
        for b in range(len(remaining)):
            taken[b] = min(remaining[b], chunk_size, budget)
            budget -= taken[b]
        remaining -= taken
        steps.append(taken)
    return np.array(steps).reshape(len(steps), len(prompt_lens))
