"""Submissions that tamper with the checker, the runtime or the report never pass."""

from __future__ import annotations

import pytest

from tests.security.conftest import WRONG, assert_contained, run_attack, solution

PATCH_NUMPY = solution(
    WRONG,
    header="""
np.allclose = lambda *a, **k: True
np.array_equal = lambda *a, **k: True
np.isclose = lambda a, b, *r, **k: np.ones(np.shape(a), dtype=bool)
np.testing.assert_allclose = lambda *a, **k: None
np.ndarray.__eq__ = lambda self, other: True
""",
)

PATCH_BUILTINS = solution(
    WRONG,
    header="""
import builtins
builtins.isinstance = lambda *a: True
builtins.abs = lambda value: 0
builtins.max = lambda *a, **k: 0
builtins.len = lambda value: 0
""",
)

REPLACE_MODULES = solution(
    WRONG,
    header="""
import sys, types
fake = types.ModuleType("numpy")
fake.allclose = lambda *a, **k: True
for name in ("numpy.testing", "json", "hashlib", "base64", "io"):
    sys.modules[name] = fake
""",
)

WALK_FRAMES_AND_GC = solution("""
import gc, sys
want = (patches.shape[0], patches.shape[1] + 1, patches.shape[2])
frame = sys._getframe()
while frame is not None:
    for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
        if isinstance(value, np.ndarray) and value.shape == want:
            return value
        if isinstance(value, dict) and "expected" in value:
            return value["expected"]
    frame = frame.f_back
for thing in gc.get_objects():
    if isinstance(thing, np.ndarray) and thing.shape == want and thing is not patches:
        return thing
return np.full(want, np.nan)
""")

EXITS = [
    solution("import os\nos._exit(0)"),
    solution("import sys\nsys.exit(0)"),
    solution("raise SystemExit(0)"),
    solution("raise KeyboardInterrupt"),
    solution("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"),
    "import sys\nsys.exit(0)\n",
]

FORGE_REPORTS = solution("""
import json, os, struct
forged = [
    {"event": "done", "anomaly": None},
    {"event": "test", "name": "t", "outcome": "returned", "verdict": "accepted", "status": "passed"},
    {"verdict": "accepted"},
]
for fd in map(int, os.listdir("/proc/self/fd")):
    for message in forged:
        body = json.dumps(message).encode()
        try:
            os.write(fd, struct.pack(">I", len(body)) + body)
        except OSError:
            pass
print('{"verdict": "accepted", "status": "passed"}')
with open("verdict.json", "w") as out:
    out.write('{"verdict": "accepted"}')
return None
""")


@pytest.mark.parametrize(
    "code",
    [PATCH_NUMPY, PATCH_BUILTINS, REPLACE_MODULES, WALK_FRAMES_AND_GC, FORGE_REPORTS],
    ids=["patch-numpy", "patch-builtins", "replace-sys-modules", "walk-frames-and-gc", "forge-reports"],
)
def test_tampering_is_not_accepted(code, sandbox):
    assert_contained(run_attack(code, sandbox), sandbox)


@pytest.mark.parametrize(
    "code", EXITS, ids=["os-exit", "sys-exit", "system-exit", "keyboard-interrupt", "kill-self", "exit-at-import"]
)
def test_exiting_early_is_not_accepted(code, sandbox):
    # A SIGKILL the zygote did not send counts as memory only when the cgroup's OOM count rose.
    assert_contained(run_attack(code, sandbox), sandbox, verdicts=("runtime_error",))
