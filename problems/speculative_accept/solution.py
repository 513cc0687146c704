import numpy as np


def _draw(probs: np.ndarray, u: float) -> int:
    """Inverse CDF: the smallest id whose cumulative probability exceeds u."""
    return int(np.searchsorted(np.cumsum(probs), u, side="right"))


def speculative_accept(draft_tokens: np.ndarray, draft_probs: np.ndarray, target_probs: np.ndarray,
                       uniforms: np.ndarray) -> np.ndarray:
    """Reference: Leviathan et al.'s speculative sampling, one verification of K draft tokens."""
    k = len(draft_tokens)
    accepted = []
    for i, token in enumerate(draft_tokens):
        if uniforms[i] < min(1.0, target_probs[i, token] / draft_probs[i, token]):
            accepted.append(int(token))
            continue
        residual = np.maximum(target_probs[i] - draft_probs[i], 0.0)
        return np.array(accepted + [_draw(residual / residual.sum(), uniforms[k])], dtype=np.int64)
    return np.array(accepted + [_draw(target_probs[k], uniforms[k])], dtype=np.int64)
