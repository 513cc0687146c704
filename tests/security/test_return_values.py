"""Whatever comes back from the student's function, only a plain float64 array of the right values passes."""

from __future__ import annotations

import pytest

from tests.security.conftest import assert_contained, run_attack, solution

RIGHT = """
batch, _, width = patches.shape
right = np.concatenate([np.broadcast_to(cls_token, (batch, 1, width)), patches], axis=1)
"""

PAYLOADS = {
    "ndarray-subclass-equal-to-everything": solution(
        RIGHT
        + """
class Agreeable(np.ndarray):
    def __eq__(self, other):
        return True
    __array_priority__ = 1e9
return np.zeros_like(right).view(Agreeable)
"""
    ),
    "duck-typed-array": solution(
        RIGHT
        + """
class Duck:
    shape, dtype, ndim = right.shape, right.dtype, right.ndim
    def __array__(self, dtype=None, copy=None):
        return right
    def __eq__(self, other):
        return True
return Duck()
"""
    ),
    "broadcastable-scalar": solution("return np.float64(0.0)"),
    "zero-dimensional-array": solution("return np.array(0.0)"),
    "broadcastable-shape": solution(RIGHT + "return right[:1]"),
    "all-nan": solution(RIGHT + "return np.full_like(right, np.nan)"),
    "big-endian-right-values": solution(RIGHT + "return right.astype('>f8')"),
    "float32-right-values": solution(RIGHT + "return right.astype(np.float32)"),
    "object-array-right-values": solution(RIGHT + "return right.astype(object)"),
    "pickle-gadget": solution("""
import os
class Gadget:
    def __reduce__(self):
        return (os.system, ("touch /tmp/pwned",))
return np.array([Gadget()], dtype=object)
"""),
    "list-of-right-values": solution(RIGHT + "return right.tolist()"),
}

# Forged reports that the child writes on its own report pipe, with crafted .npy bytes.
CRAFTED_NPY = solution(
    RIGHT
    + """
import fcntl, hashlib, io, json, os, stat, struct

def npy_bytes(header, data=b""):
    text = repr(header).encode("latin1")
    text += b" " * (63 - (10 + len(text)) % 64) + b"\\n"
    return b"\\x93NUMPY\\x01\\x00" + struct.pack("<H", len(text)) + text + data

def saved(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()

hashes = {"patches": hashlib.sha256(saved(patches)).hexdigest(),
          "cls_token": hashlib.sha256(saved(cls_token)).hexdigest()}
payloads = {
    "huge": npy_bytes({"descr": "<f8", "fortran_order": False, "shape": (10**12,)}),
    "object": npy_bytes({"descr": "|O", "fortran_order": False, "shape": right.shape}, b"\\x80\\x04N."),
    "truncated": npy_bytes({"descr": "<f8", "fortran_order": False, "shape": right.shape}, right.tobytes()[:8]),
    "lying-shape": saved(np.zeros(3)),
    "not-npy": b"{'verdict': 'accepted'}",
}
def is_pipe(fd):  # the report pipe: the one it may write (the job pipe, while hidden tests are to come, it reads)
    try:
        writable = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY
        return fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode) and writable
    except OSError:  # the directory listing's own descriptor, closed by now
        return False

report = next(fd for fd in map(int, os.listdir("/proc/self/fd")) if is_pipe(fd))
kind = KIND
event = {"event": "test", "name": "t", "outcome": "returned", "dtype": "<f8", "shape": list(right.shape),
         "output": {"$bytes": [0, len(payloads[kind])]}, "input_hashes": hashes, "time_ms": 1.0}
text = json.dumps(event).encode()
body = struct.pack(">I", len(text)) + text + payloads[kind]
os.write(report, struct.pack(">I", len(body)) + body)
os._exit(0)
"""
)


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_confusing_return_values_are_not_accepted(name, sandbox):
    assert_contained(run_attack(PAYLOADS[name], sandbox), sandbox)


@pytest.mark.parametrize("kind", ["huge", "object", "truncated", "lying-shape", "not-npy"])
def test_crafted_npy_reports_are_not_accepted(kind, sandbox):
    report = run_attack(CRAFTED_NPY.replace("KIND", repr(kind)), sandbox)
    assert report.tests[0].status != "runtime_error", "the forged report never reached the judge"
    assert_contained(report, sandbox)
