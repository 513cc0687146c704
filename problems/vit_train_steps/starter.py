import numpy as np

# Once you have solved them, your own accepted solutions can be imported here:
# from solved import image_to_patches, layer_norm, pre_ln_block, softmax_cross_entropy, cross_entropy_grad_logits
# from solved import linear_backward, layer_norm_affine_backward, pre_ln_block_backward
# from solved import cls_token_gradient, positional_embedding_gradient


def vit_train_steps(images: np.ndarray, labels: np.ndarray, params: dict, patch_size: int, n_heads: int,
                    lr: float, steps: int) -> np.ndarray:
    """Full-batch gradient descent on every weight of a one-block ViT; the loss before each step.

    Args:
        images: float64 array (B, H, W, C); H and W are multiples of patch_size.
        labels: float64 array (B,) of whole numbers in [0, K).
        params: a dict of float64 arrays, vit_forward's weights by name for one layer: "w_patch" (P, D),
            "b_patch" (D,), "cls_token" (1, 1, D), "pos_embed" (1, N + 1, D); "ln1_gamma", "ln1_beta",
            "ln2_gamma", "ln2_beta", "b2" (1, D); "w_q", "w_k", "w_v", "w_o" (1, D, D); "w1" (1, D, F),
            "b1" (1, F), "w2" (1, F, D); "ln_gamma", "ln_beta" (D,); "w_head" (D, K), "b_head" (K,).
        patch_size: a Python int p.
        n_heads: a Python int that divides D; the encoder has no causal mask.
        lr: a Python float, the learning rate.
        steps: a Python int >= 1.

    Returns:
        float64 array (steps,): the mean cross-entropy of the weights each step starts from, the first
        entry the untrained model's. No input is modified.
    """
    raise NotImplementedError("forward, backward from your pieces, step every weight; record the loss first")
