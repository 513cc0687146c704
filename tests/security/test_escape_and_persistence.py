"""Escapes, leaks and persistence: nothing secret comes out, nothing reaches out, nothing stays."""

from __future__ import annotations

import pytest

from tests.conftest import REPO, read_solution
from tests.security.conftest import CANARY_FILE, SLUG, WRONG, assert_contained, run_attack, solution

READ_SECRETS = solution(f"""
import glob, os
found = [repr(dict(os.environ))]
paths = ["/proc/self/environ", "/proc/1/environ", f"/proc/{{os.getppid()}}/environ", "/etc/shadow",
         {str(CANARY_FILE)!r}, {str(REPO / "problems" / SLUG / "solution.py")!r}, {str(REPO / "var" / "secret_key")!r},
         "/root/.bash_history", "/var/run/docker.sock"]
paths += glob.glob("/proc/*/environ") + glob.glob({str(REPO / "var" / "*")!r})
for path in paths:
    try:
        with open(path, "rb") as handle:
            found.append(path + "=" + handle.read(4000).decode("latin1"))
    except OSError as exc:
        found.append(path + ": " + type(exc).__name__)
raise RuntimeError(" | ".join(found))
""")

NETWORK = solution("""
import socket
results = []
targets = [("127.0.0.1", 6379), ("127.0.0.1", 5432), ("172.17.0.1", 6379), ("172.17.0.1", 5432),
           ("172.17.0.1", 2375), ("1.1.1.1", 53), ("10.0.0.1", 80)]
for host, port in targets:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            results.append(f"CONNECTED to {host}:{port}")
    except OSError as exc:
        results.append(f"{host}:{port} {type(exc).__name__}")
for path in ("/var/run/docker.sock", "/run/docker.sock", "/var/run/postgresql/.s.PGSQL.5432"):
    try:
        unix = socket.socket(socket.AF_UNIX)
        unix.connect(path)
        results.append(f"CONNECTED to {path}")
    except OSError as exc:
        results.append(f"{path} {type(exc).__name__}")
raise RuntimeError("; ".join(results))
""")

KILL_PARENT = solution(
    """
import os, signal
for target in (os.getppid(), 1, -1):
    try:
        os.kill(target, signal.SIGKILL)
    except OSError:
        pass
"""
    + WRONG
)

PTRACE = solution(
    """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
attached = libc.ptrace(16, os.getppid(), 0, 0)  # PTRACE_ATTACH to the zygote
if attached == 0:
    raise RuntimeError("ATTACHED to the zygote")
try:
    open(f"/proc/{os.getppid()}/mem", "rb").read(1)
    raise RuntimeError("READ the zygote's memory")
except OSError:
    pass
"""
    + WRONG
)

SYMLINKS = solution(
    """
import os
for link, target in (("shadow", "/etc/shadow"), ("up", ".."), ("../planted", "/"), ("/tmp/planted", "/etc"),
                     ("/tmp/zygote-planted", "/")):
    try:
        os.symlink(target, link)
    except OSError:
        pass
"""
    + WRONG
)

DAEMON = solution(
    """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for _ in range(600):
            try:
                with open("survivor.txt", "a") as out:
                    out.write("still here\\n")
            except OSError:
                pass
            time.sleep(0.1)
    os._exit(0)
"""
    + WRONG
)

SYSV_IPC = solution(
    """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget(0x4A554447, 4096, 0o1666)
libc.msgget(0x4A554448, 0o1666)
libc.semget(0x4A554449, 1, 0o1666)
"""
    + WRONG
)

PATCH_FOR_THE_NEXT_JOB = solution(
    """
import builtins, sys
np.concatenate = lambda *a, **k: np.zeros(1)
builtins.__import__ = None
sys.modules["numpy"].broadcast_to = None
try:
    with open(np.__file__, "a") as source:
        source.write("\\nconcatenate = None\\n")
except OSError:
    pass
"""
    + WRONG
)

PERSISTENCE_PROBES = {
    "symlinks": SYMLINKS,
    "detached-daemon": DAEMON,
    "sysv-ipc": SYSV_IPC,
    "patched-modules": PATCH_FOR_THE_NEXT_JOB,
    "kill-the-parent": KILL_PARENT,
}


def test_secrets_and_solutions_cannot_be_read(sandbox):
    report = run_attack(READ_SECRETS, sandbox)
    assert report.tests[0].status == "runtime_error"
    assert "environ" in report.tests[0].message  # the payload ran and reported
    assert_contained(report, sandbox)


def test_there_is_no_network(sandbox):
    report = run_attack(NETWORK, sandbox)
    message = report.tests[0].message
    assert "6379" in message  # the payload ran and reported
    assert "CONNECTED" not in message
    assert_contained(report, sandbox)


def test_the_zygote_cannot_be_traced(sandbox):
    report = run_attack(PTRACE, sandbox)
    assert "ATTACHED" not in report.tests[0].message and "READ" not in report.tests[0].message
    assert_contained(report, sandbox)


@pytest.mark.parametrize("name", sorted(PERSISTENCE_PROBES))
def test_nothing_survives_into_the_next_job(name, sandbox):
    assert_contained(run_attack(PERSISTENCE_PROBES[name], sandbox), sandbox)


def test_a_patched_numpy_is_gone_for_the_next_student(sandbox):
    run_attack(PATCH_FOR_THE_NEXT_JOB, sandbox)
    assert run_attack(read_solution(SLUG), sandbox).verdict == "accepted"
