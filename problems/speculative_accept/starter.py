import numpy as np


def speculative_accept(draft_tokens: np.ndarray, draft_probs: np.ndarray, target_probs: np.ndarray,
                       uniforms: np.ndarray) -> np.ndarray:
    """Verify K draft tokens against the target model (Leviathan et al., 2023).

    Args:
        draft_tokens: int64 (K,), the tokens the draft model proposed.
        draft_probs: float64 (K, V), q: the draft model's distribution at each of those steps.
        target_probs: float64 (K + 1, V), p: the target model's distribution at each step, and
            one more after the last draft token.
        uniforms: float64 (K + 1,), numbers in [0, 1): uniforms[i] decides draft token i,
            uniforms[K] the one token drawn at the end.

    Returns:
        int64 (n + 1,): the n draft tokens accepted (accept token i while
        uniforms[i] < min(1, p_i(t_i) / q_i(t_i)), stop at the first rejection), then one token
        drawn by inverse CDF with uniforms[K]: from normalise(max(0, p_i - q_i)) after a
        rejection at i, from p_K if all K were accepted.
    """
    raise NotImplementedError("accept while u < p/q; on rejection draw from the normalised residual")
