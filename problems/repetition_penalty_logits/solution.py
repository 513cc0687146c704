import numpy as np


def repetition_penalty_logits(logits: np.ndarray, prev_ids: np.ndarray, penalty: float) -> np.ndarray:
    """Reference: CTRL's rule as Hugging Face applies it, each seen id once per row."""
    rows = np.arange(logits.shape[0])[:, None]
    seen = logits[rows, prev_ids]  # (B, T): a repeated id gathers the same logit again
    penalised = np.where(seen < 0, seen * penalty, seen / penalty)
    out = logits.copy()
    out[rows, prev_ids] = penalised  # a repeated id writes the same value again: penalised once
    return out
