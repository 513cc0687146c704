import numpy as np

# Your own accepted solutions of the earlier problems can be imported here:
# from solved import image_to_patches, patch_embedding, prepend_class_token
# from solved import transformer_stack, cls_pool, classification_head


def vit_forward(
    images: np.ndarray,
    w_patch: np.ndarray,
    b_patch: np.ndarray,
    cls_token: np.ndarray,
    pos_embed: np.ndarray,
    ln1_gamma: np.ndarray,
    ln1_beta: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    ln2_gamma: np.ndarray,
    ln2_beta: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    ln_gamma: np.ndarray,
    ln_beta: np.ndarray,
    w_head: np.ndarray,
    b_head: np.ndarray,
    patch_size: int,
    n_heads: int,
) -> np.ndarray:
    """Class logits of a Vision Transformer.

    Args:
        images: float64 (B, H, W, C), channels last; H and W are multiples of patch_size.
        w_patch: float64 (P, D) with P = patch_size**2 * C; b_patch: float64 (D,).
        cls_token: float64 (1, 1, D). pos_embed: float64 (1, N + 1, D), N = (H/p)(W/p).
        ln1_gamma ... b2: the encoder's stacked block weights, as in transformer_stack
            ((n_layers, D), (n_layers, D, D), (n_layers, D, F), ...); no causal mask.
        ln_gamma, ln_beta: float64 (D,), the final layer norm (eps = 1e-5).
        w_head: float64 (D, K); b_head: float64 (K,).
        patch_size, n_heads: Python ints.

    Returns:
        A new float64 array of shape (B, K): the logits, before any softmax.
        No input may be modified.
    """
    raise NotImplementedError("patches, embed, class token, positions, encoder, norm, read slot 0, head")
