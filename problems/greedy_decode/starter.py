import numpy as np

# Your own accepted solution of gpt_next_token_logits can be imported here:
# from solved import gpt_next_token_logits


def greedy_decode(prompt_ids: np.ndarray, params: dict, n_heads: int, n_new: int) -> np.ndarray:
    """Generate n_new tokens after each prompt, always taking the highest-scoring next token.

    Args:
        prompt_ids: int64 array of shape (B, L), token ids in [0, V).
        params: a dict of float64 arrays holding gpt_next_token_logits' weights under the names
            of its parameters: "w_token_embed", "w_pos_embed", "ln1_gamma", ..., "b2",
            "ln_gamma", "ln_beta", "w_unembed".
        n_heads: a Python int that divides D.
        n_new: a Python int >= 0, the number of tokens to generate.

    Returns:
        A new int64 array of shape (B, L + n_new): each prompt followed by its n_new tokens. At
        each step the next token of a sequence is the argmax of the model's logits for it, the
        lowest id winning a tie. No input may be modified.
    """
    raise NotImplementedError("run the model on the sequence so far, append each row's argmax, repeat n_new times")
