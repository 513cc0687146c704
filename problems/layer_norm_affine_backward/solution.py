import numpy as np


def layer_norm_affine_backward(x: np.ndarray, gamma: np.ndarray, grad_out: np.ndarray, eps: float):
    # A student can take grad_x from their own layer_norm_backward (from solved import ...); the
    # reference is self-contained, since it also builds the expected outputs.
    centred = x - x.mean(axis=-1, keepdims=True)  # two-pass variance: no cancellation for large offsets
    inv_std = 1.0 / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps)
    x_hat = centred * inv_std
    grad_hat = grad_out * gamma
    grad_x = inv_std * (grad_hat - grad_hat.mean(axis=-1, keepdims=True)
                        - x_hat * np.mean(grad_hat * x_hat, axis=-1, keepdims=True))
    features = x.shape[-1]
    # gamma and beta are shared by every token: their gradients add up over all leading axes.
    grad_gamma = (grad_out * x_hat).reshape(-1, features).sum(axis=0)
    grad_beta = grad_out.reshape(-1, features).sum(axis=0)
    return grad_x, grad_gamma, grad_beta
