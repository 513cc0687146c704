import numpy as np

# Your own accepted solution of window_partition can be imported here:
# from solved import window_partition


def shifted_window_mask(H: int, W: int, window: int, shift: int) -> np.ndarray:
    """The additive attention mask of Swin's shifted windows.

    Args:
        H, W: Python ints, the feature map's height and width, multiples of window.
        window: a Python int, the window side. shift: a Python int, 0 <= shift < window, by which
            the map is rolled up and left (torch.roll(x, (-shift, -shift))) before windowing.

    Returns:
        A float64 array of shape (nW, window * window, window * window), nW = (H / window) *
        (W / window), windows in Swin's order: entry [n, i, j] is 0 when pixels i and j of shifted
        window n come from the same region of the map before the roll, -inf otherwise.
    """
    raise NotImplementedError("label the shifted map's regions, partition the labels into windows, compare")
