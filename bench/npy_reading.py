"""Reading .npy bytes: ``engine.arrays.read_npy`` against numpy's own header parser and ``np.load``, side by side.

The gate and the grader read every result and every expected output; most are small, and for a small array
numpy's reading is mostly its header parser (a Python literal, compiled).  This prints, per size, the median
time of each way over interleaved rounds and their ratio.

    .venv/bin/python bench/npy_reading.py [--rounds 15] [--calls 2000]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.arrays import read_npy, to_npy

SHAPES = {"scalar": (), "4 x 8": (4, 8), "64 x 64": (64, 64), "8 x 197 x 64": (8, 197, 64)}


def numpy_way(data: bytes) -> np.ndarray:
    """What read_npy did before: numpy parses and checks the header, then np.load parses it again."""
    stream = io.BytesIO(data)
    npy_format.read_magic(stream)
    shape, _, dtype = npy_format.read_array_header_1_0(stream, max_header_size=10000)
    assert int(np.prod(shape, dtype=np.int64)) * dtype.itemsize == len(data) - stream.tell()
    stream.seek(0)
    return np.load(stream, allow_pickle=False)


def seconds(read, data: bytes, calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        read(data)
    return (time.perf_counter() - started) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'array':>14}  {'numpy (us)':>10}  {'read_npy (us)':>13}  {'ratio':>6}")
    for name, shape in SHAPES.items():
        data = to_npy(rng.standard_normal(shape))
        assert np.array_equal(read_npy(data, len(data)), numpy_way(data))
        ours, theirs = [], []
        for _ in range(args.rounds):  # interleaved, so a change in the machine's load hits both
            theirs.append(seconds(numpy_way, data, args.calls))
            ours.append(seconds(lambda d: read_npy(d, len(d)), data, args.calls))
        a, b = statistics.median(theirs), statistics.median(ours)
        print(f"{name:>14}  {a * 1e6:10.1f}  {b * 1e6:13.1f}  {a / b:5.1f}x")


if __name__ == "__main__":
    main()
