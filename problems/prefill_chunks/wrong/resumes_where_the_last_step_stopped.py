import numpy as np


def prefill_chunks(prompt_lens, chunk_size, token_budget):
    remaining = prompt_lens.copy()
    n = len(remaining)
    steps, start = [], 0
    while remaining.sum() > 0:
        budget = token_budget
        taken = np.zeros_like(remaining)
        # Round robin: each step starts after the last sequence the previous step served.
        for i in range(n):
            b = (start + i) % n
            taken[b] = min(remaining[b], chunk_size, budget)
            budget -= taken[b]
            if taken[b] > 0:
                last = b
        start = (last + 1) % n
        remaining -= taken
        steps.append(taken)
    return np.array(steps, dtype=np.int64).reshape(len(steps), n)
