import numpy as np

# Your own accepted solutions can be imported here:
# from solved import gpt_next_token_logits, transformer_stack


def activation_patching(token_ids_clean: np.ndarray, token_ids_corrupt: np.ndarray, params: dict,
                        n_heads: int, answer_ids: np.ndarray) -> np.ndarray:
    """Patch the clean residual stream into the corrupt run, one layer boundary and position at a time.

    Args:
        token_ids_clean, token_ids_corrupt: int64 arrays of shape (L,), two prompts of the same length.
        params: a dict of float64 arrays holding gpt_next_token_logits' weights under the names of its
            parameters: "w_token_embed", "w_pos_embed", "ln1_gamma", ..., "b2", "ln_gamma", "ln_beta",
            "w_unembed"; N = params["w_q"].shape[0] layers.
        n_heads: a Python int that divides D.
        answer_ids: int64 array of shape (2,): the metric is logit[answer_ids[0]] - logit[answer_ids[1]]
            of the next token after the last position.

    Returns:
        A float64 array of shape (N + 1, L): entry (n, l) is the metric of the corrupt run in which the
        residual stream at boundary n (0: after the embeddings, n: after block n - 1), position l, is
        replaced by the clean run's, normalised as (patched - corrupt) / (clean - corrupt).
        No input is modified.
    """
    raise NotImplementedError("streams of both runs at every boundary; patch one vector; finish the run; normalise")
