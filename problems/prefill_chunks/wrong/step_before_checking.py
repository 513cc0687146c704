import numpy as np


def prefill_chunks(prompt_lens, chunk_size, token_budget):
    remaining = prompt_lens.copy()
    steps = []
    while True:
        # One step is always scheduled before the loop checks what is left: empty prompts get a row of zeros.
        budget = token_budget
        taken = np.zeros_like(remaining)
        for b in range(len(remaining)):
            taken[b] = min(remaining[b], chunk_size, budget)
            budget -= taken[b]
        remaining -= taken
        steps.append(taken)
        if remaining.sum() == 0:
            break
    return np.array(steps, dtype=np.int64).reshape(len(steps), len(prompt_lens))
