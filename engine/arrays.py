"""Encoding arrays for the sandbox, and reading what comes back from it.

Everything read here came from student code, so it is parsed defensively:
the size is capped, the ``.npy`` header is parsed and checked before any data
is touched, object dtypes (which would need pickle) are refused, and the byte
count must match the header exactly.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile
from typing import Any

import numpy as np
from numpy.lib import format as npy_format
from numpy.typing import NDArray

from sandbox.protocol import plain_npy_header


class UnreadableArray(ValueError):
    """The bytes are not a plain, pickle-free .npy array."""


def to_npy(array: NDArray[Any]) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def npy_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _header(data: bytes) -> tuple[tuple[Any, ...], bool, np.dtype[Any], int]:
    """(shape, Fortran order, dtype, where the data starts) of untrusted .npy bytes: the header np.save writes
    read directly (``plain_npy_header``), any other by numpy's parser."""
    if (plain := plain_npy_header(data)) is not None:
        shape, fortran, dtype, start = plain
        return shape, fortran, np.dtype(dtype), start
    stream = io.BytesIO(data)
    try:
        version = npy_format.read_magic(stream)  # type: ignore[no-untyped-call]  # numpy 2.2 leaves it unannotated
        if version == (1, 0):
            shape, fortran, dtype = npy_format.read_array_header_1_0(stream, max_header_size=10000)  # type: ignore[no-untyped-call, call-arg]  # as read_magic; its stub lacks max_header_size
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = npy_format.read_array_header_2_0(stream, max_header_size=10000)  # type: ignore[no-untyped-call, call-arg]  # as read_magic
        else:
            raise UnreadableArray(f"unsupported .npy version {version}")
    except (ValueError, EOFError, SyntaxError) as exc:
        raise UnreadableArray(f"malformed .npy header: {exc}") from None
    return shape, fortran, dtype, stream.tell()


def read_npy(data: bytes, max_bytes: int) -> NDArray[Any]:
    """Parse untrusted .npy bytes into an array (writable, its own copy), or raise UnreadableArray."""
    if len(data) > max_bytes:
        raise UnreadableArray(f"the result is {len(data)} bytes, over the limit of {max_bytes}")
    shape, fortran, dtype, start = _header(data)
    if dtype.hasobject:
        raise UnreadableArray("object arrays are not accepted")
    if len(shape) > 32 or any(not isinstance(n, int) or n < 0 for n in shape):
        raise UnreadableArray(f"implausible shape {shape!r}")
    count = math.prod(shape)  # Python's integers: a shape whose product wraps around in int64 is not 0 here
    if count * dtype.itemsize != len(data) - start:
        raise UnreadableArray("the .npy data does not match its header")
    try:
        array = np.frombuffer(data, dtype, count, start).reshape(shape, order="F" if fortran else "C")
    except (ValueError, TypeError) as exc:
        raise UnreadableArray(str(exc)) from None
    return array.copy(order="K")


def from_npy(data: bytes) -> NDArray[Any]:
    """Our own .npy bytes (an expected output, a stored input) as an array, read as quickly as a result is."""
    return read_npy(data, len(data))


def pack_inputs(args: dict[str, bytes | dict[str, bytes] | int | float | bool]) -> bytes:
    """Store a test's named inputs as a zip (no pickle): ``name.npy`` for an array, ``name/key.npy`` for each
    array of a ``params`` dict, ``name.json`` for a scalar."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, value in args.items():
            if isinstance(value, bytes):
                archive.writestr(f"{name}.npy", value)
            elif isinstance(value, dict):
                for key, data in value.items():
                    archive.writestr(f"{name}/{key}.npy", data)
            else:
                archive.writestr(f"{name}.json", json.dumps(value))
    return buffer.getvalue()


def unpack_inputs(data: bytes) -> dict[str, bytes | dict[str, bytes] | int | float | bool]:
    """Each input, in the order stored: the .npy bytes of an array, {key: .npy bytes} of a ``params`` dict,
    the plain value of a scalar."""
    inputs: dict[str, Any] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for entry in archive.namelist():
            name, kind = entry.rsplit(".", 1)
            if "/" in name:
                name, key = name.split("/", 1)
                inputs.setdefault(name, {})[key] = archive.read(entry)
                continue
            inputs[name] = archive.read(entry) if kind == "npy" else json.loads(archive.read(entry))
    return inputs


def load_inputs(data: bytes) -> dict[str, NDArray[Any] | int | float | bool]:
    """Each input as its function receives it; a ``params`` dict's arrays as ``name["key"]``, one by one."""
    loaded: dict[str, NDArray[Any] | int | float | bool] = {}
    for name, raw in unpack_inputs(data).items():
        if isinstance(raw, dict):
            loaded |= {f'{name}["{key}"]': np.load(io.BytesIO(v), allow_pickle=False) for key, v in raw.items()}
        else:
            loaded[name] = np.load(io.BytesIO(raw), allow_pickle=False) if isinstance(raw, bytes) else raw
    return loaded
