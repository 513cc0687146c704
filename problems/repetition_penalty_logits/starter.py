import numpy as np


def repetition_penalty_logits(logits: np.ndarray, prev_ids: np.ndarray, penalty: float) -> np.ndarray:
    """CTRL's repetition penalty, as Hugging Face's RepetitionPenaltyLogitsProcessor applies it.

    Args:
        logits: float64 array of shape (B, V), finite or -inf.
        prev_ids: int64 array of shape (B, T), the tokens of each sequence so far (T may be 0).
        penalty: a Python float > 0 (above 1 discourages repetition).

    Returns:
        A new float64 array of shape (B, V): in row b, every id that appears in prev_ids[b] has its
        logit divided by penalty if it is positive or zero, multiplied by penalty if it is negative,
        once however often it appears; every other entry unchanged. The input is not modified.
    """
    raise NotImplementedError("gather each row's seen logits, penalise by sign, scatter into a copy")
