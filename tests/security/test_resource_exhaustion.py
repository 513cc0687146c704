"""Exhausting a resource ends in a limit verdict; the sandbox and the next submission are unharmed."""

from __future__ import annotations

import time

import pytest

from tests.security.conftest import assert_contained, run_attack, solution

PAYLOADS = {
    "fork-bomb": (
        solution("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass"),
        ("time_limit_exceeded", "runtime_error", "memory_limit_exceeded"),
    ),
    "memory-at-once": (solution("return np.ones((1 << 34,))"), ("memory_limit_exceeded",)),
    # 128 MiB at a time: a slow machine may run out of time before it runs out of memory.
    "memory-bit-by-bit": (
        solution("hoard = []\nwhile True:\n    hoard.append(np.ones(1 << 24))"),
        ("memory_limit_exceeded", "time_limit_exceeded"),
    ),
    "cpu": (solution("while True:\n    pass"), ("time_limit_exceeded",)),
    "sleep": (solution("import time\ntime.sleep(600)"), ("time_limit_exceeded",)),
    "threads": (
        solution(
            "import threading, time\n"
            "for _ in range(1000):\n    threading.Thread(target=time.sleep, args=(600,)).start()\n"
            "time.sleep(600)"
        ),
        ("time_limit_exceeded", "runtime_error"),
    ),
    "output-flood": (solution("while True:\n    print('x' * 100000)"), ("time_limit_exceeded",)),
    "fill-the-disk": (
        solution("""
import os
written = 0
for target in (".", "/tmp", "/dev/shm", "/var/tmp", os.path.expanduser("~")):
    try:
        with open(os.path.join(target, "ballast"), "wb") as out:
            while True:
                out.write(b"x" * (1 << 20))
                written += 1
    except OSError:
        pass
raise RuntimeError(f"wrote {written} MiB")
"""),
        ("runtime_error",),
    ),
    "file-descriptors": (
        solution("handles = []\nwhile True:\n    handles.append(open('/dev/null'))"),
        ("runtime_error",),
    ),
    "huge-return-value": (solution("return np.zeros((4000, 4000))"), ("output_limit_exceeded",)),
}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_exhaustion_is_contained(name, sandbox):
    code, verdicts = PAYLOADS[name]
    started = time.monotonic()
    report = run_attack(code, sandbox)
    assert time.monotonic() - started < 30
    assert_contained(report, sandbox, verdicts=verdicts)
    assert all(len(test.stdout) <= 10_000 for test in report.tests)
