"""The child's own .npy writing: what the judge reads is what np.save would have written, whatever the array."""

from __future__ import annotations

import hashlib
import io

import numpy as np
import pytest

from sandbox.protocol import decode_body, encode_frame
from sandbox.zygote.child import _input_hash, _npy

DTYPES = [
    "<f8",
    ">f8",
    "<f4",
    "<f2",
    "|b1",
    "<i8",
    ">i2",
    "|u1",
    "|i1",
    "<c16",
    ">c8",
    "<M8[ns]",
    "<U3",
    [("a", "<f8")],
]
SHAPES = [(), (0,), (3,), (2, 3), (1, 2, 3, 4), (7, 0), (1,) * 20]


def saved(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def layouts(array: np.ndarray) -> list[np.ndarray]:
    """The array, its transpose (Fortran order) and every other element of it (neither order)."""
    return [array, array.T, array[::2] if array.ndim else array]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_a_result_is_written_byte_for_byte_as_np_save_writes_it(dtype, shape):
    array = (
        np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
        if np.dtype(dtype).kind in "biufc"
        else np.zeros(shape, dtype)
    )
    for layout in layouts(array):
        assert _npy(layout) == saved(layout)


@pytest.mark.parametrize("dtype", ["<f8", ">i2", "|b1", "<c8"])
def test_an_input_hash_is_the_hash_of_what_np_save_writes_now(dtype):
    sent = saved(np.arange(12).reshape(3, 4).astype(dtype))
    received = decode_body(encode_frame({"x": sent})[4:])["x"]
    untouched = np.frombuffer(received, dtype, offset=len(sent) - 12 * np.dtype(dtype).itemsize).reshape(3, 4).copy()
    assert _input_hash(untouched, received) == hashlib.sha256(sent).hexdigest()
    changed = untouched.copy()
    changed[1, 2] = 0 if dtype != "|b1" else not changed[1, 2]
    reshaped = untouched.copy()
    reshaped.shape = (4, 3)
    for array in (changed, reshaped, untouched.T, untouched.view(np.uint8)):
        assert (
            _input_hash(array, received) == hashlib.sha256(saved(array)).hexdigest() != hashlib.sha256(sent).hexdigest()
        )
