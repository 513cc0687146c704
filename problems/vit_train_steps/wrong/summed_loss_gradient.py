# Known wrong: the gradient of the summed loss (B times the mean's), while the mean loss is reported.
import numpy as np
from solved import (
    cls_token_gradient,
    cross_entropy_grad_logits,
    image_to_patches,
    layer_norm,
    layer_norm_affine_backward,
    linear_backward,
    positional_embedding_gradient,
    pre_ln_block,
    pre_ln_block_backward,
    softmax_cross_entropy,
)

BLOCK = ["ln1_gamma", "ln1_beta", "w_q", "w_k", "w_v", "w_o", "ln2_gamma", "ln2_beta", "w1", "b1", "w2", "b2"]


def loss_and_gradients(images, labels, p, patch_size, n_heads):
    # The forward, keeping what the backward pieces need.
    patches = image_to_patches(images, patch_size)
    tokens = patches @ p["w_patch"] + p["b_patch"]
    cls = np.broadcast_to(p["cls_token"], (tokens.shape[0], 1, tokens.shape[2]))
    x = np.concatenate([cls, tokens], axis=1) + p["pos_embed"]
    block = {name: p[name][0] for name in BLOCK}
    out = pre_ln_block(x, *[block[name] for name in BLOCK], n_heads, False)
    state = out[:, 0]
    pooled = layer_norm(state, p["ln_gamma"], p["ln_beta"], 1e-5)
    logits = pooled @ p["w_head"] + p["b_head"]

    # The backward, from the loss down to the pixels' projection.
    grad_summed = labels.shape[0] * cross_entropy_grad_logits(logits, labels)  # the mistake: not the mean's
    g_pooled, g_w_head, g_b_head = linear_backward(pooled, p["w_head"], grad_summed)
    g_state, g_ln_gamma, g_ln_beta = layer_norm_affine_backward(state, p["ln_gamma"], g_pooled, 1e-5)
    g_out = np.zeros(out.shape)
    g_out[:, 0] = g_state  # only the class token reaches the head
    g = pre_ln_block_backward(x, block, n_heads, False, g_out)
    _, g_w_patch, g_b_patch = linear_backward(patches, p["w_patch"], g["x"][:, 1:])
    grads = {name: g[name][None] for name in BLOCK}
    grads.update(w_patch=g_w_patch, b_patch=g_b_patch, cls_token=cls_token_gradient(g["x"]),
                 pos_embed=positional_embedding_gradient(g["x"]), ln_gamma=g_ln_gamma, ln_beta=g_ln_beta,
                 w_head=g_w_head, b_head=g_b_head)
    return softmax_cross_entropy(logits, labels), grads


def vit_train_steps(images, labels, params, patch_size, n_heads, lr, steps):
    p = dict(params)
    losses = []
    for _ in range(steps):
        loss, grads = loss_and_gradients(images, labels, p, patch_size, n_heads)
        losses.append(loss)
        p = {name: p[name] - lr * grads[name] for name in p}
    return np.array(losses, dtype=np.float64)
