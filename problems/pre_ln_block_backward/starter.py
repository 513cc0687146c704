import numpy as np

# Once you have solved them, your own accepted solutions can be imported here:
# from solved import feed_forward_backward, layer_norm_affine_backward, multi_head_attention_backward


def pre_ln_block_backward(x: np.ndarray, params: dict, n_heads: int, causal: bool, grad_out: np.ndarray) -> dict:
    """Every gradient of track 2's pre_ln_block: h = x + MHA(LN1(x)); out = h + FFN(LN2(h)).

    Args:
        x: float64 array of shape (B, L, D), the block's input.
        params: a dict of float64 arrays, the block's weights by name: "ln1_gamma", "ln1_beta",
            "ln2_gamma", "ln2_beta", "b2" of shape (D,); "w_q", "w_k", "w_v", "w_o" of shape
            (D, D); "w1" (D, F), "b1" (F,), "w2" (F, D). Layer norms use eps = 1e-5 and the
            biased variance; the feed-forward uses the exact GELU.
        n_heads: a Python int H that divides D.
        causal: a Python bool; when True, position i attends to positions 0..i only.
        grad_out: float64 array of shape (B, L, D), the loss's gradient at the block's output.

    Returns:
        A dict with the key "x" and every key of params: new float64 arrays of the shapes of the
        arrays they are named after. The weights' gradients are summed over every batch and position.
        No input is modified.
    """
    raise NotImplementedError("recompute the forward, then back through the feed-forward, LN2, attention and LN1")
