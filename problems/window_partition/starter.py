import numpy as np


def window_partition(x: np.ndarray, window: int) -> np.ndarray:
    """Cut feature maps into non-overlapping square windows, as Swin Transformer does.

    Args:
        x: float64 array of shape (B, H, W, C); H and W are multiples of window.
        window: a Python int >= 1, the side of a window.

    Returns:
        A float64 array of shape (B * nW, window * window, C), nW = (H // window) * (W // window):
        the windows of image 0 first, each image's windows row by row (left to right, then
        down), and the pixels of each window row by row. x is not modified.
    """
    raise NotImplementedError("reshape to (B, H/w, w, W/w, w, C), bring the two window axes together, flatten")
