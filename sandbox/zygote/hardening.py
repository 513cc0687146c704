"""Hardening: the zygote's own namespaces (process backend), and each child's privileges and rlimits."""

from __future__ import annotations

import ctypes
import math
import os
import resource
import signal
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV = 1, 2, 4
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18

libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def prctl(option: int, value: int) -> None:
    _check(libc.prctl(option, value, 0, 0, 0), "prctl")


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    _check(
        libc.mount(
            source.encode(),
            target.encode(),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


def isolate(masks: list[str], keeps: list[str]) -> None:
    """Give the zygote (and so its children) no network and a masked file system.

    Every path in ``masks`` is hidden under an empty tmpfs; every path in ``keeps``
    (the Python installation) is put back read-only inside the masked tree.
    """
    _check(libc.unshare(CLONE_NEWNS | CLONE_NEWNET), "unshare")
    _mount("none", "/", None, MS_REC | MS_PRIVATE, None)
    # Handles on the kept trees survive the masking: bind them back through /proc/self/fd.
    handles = [(os.open(keep, os.O_PATH | os.O_DIRECTORY), keep) for keep in keeps if os.path.isdir(keep)]
    for mask in sorted(set(masks), key=len):
        if os.path.isdir(mask) and not os.path.islink(mask):
            options = "size=64m,mode=711" if mask == "/tmp" else "size=1m,mode=755"
            _mount("tmpfs", mask, "tmpfs", MS_NOSUID | MS_NODEV, options)
    for handle, keep in handles:
        os.makedirs(keep, exist_ok=True)
        _mount(f"/proc/self/fd/{handle}", keep, None, MS_BIND | MS_REC, None)
        _mount("none", keep, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID, None)
        os.close(handle)


def harden_child(report_fd: int, workdir: str, limits: dict[str, Any], child_uid: int | None, cpu_s: int) -> None:
    isolate_child([report_fd], workdir)
    clean_environment(workdir)
    drop_privileges(child_uid)
    limit_child(limits, cpu_s)


def isolate_child(keep_fds: list[int], workdir: str) -> None:
    """Own session and process group, only ``keep_fds`` open, in its own directory."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.setsid()
    keep_niceness()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    keep = sorted({0, 1, 2, *keep_fds})
    for low, high in zip(keep, keep[1:] + [65536]):
        os.closerange(low + 1, high)
    os.chdir(workdir)


def keep_niceness() -> None:
    """A new session is a new autogroup where Linux has them on (``sched_autogroup_enabled``, most desktops):
    the CPU is shared between autogroups first, and a nice value counts only inside its own group.  So the
    inherited nice is given to the child's new group too: a child of the speed worker (``nice -n 19``) then
    yields the CPU to grading, where otherwise it took an equal share.  Nothing to do for a nice of 0 or
    without autogroups (the file is missing, or a container's cgroup decides instead)."""
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    if nice <= 0:
        return
    try:
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))
    except OSError:
        pass


def clean_environment(workdir: str) -> None:
    """Nothing of the zygote's environment, and no way to gain privileges by exec."""
    forget_environment()
    enter_environment(workdir)


def forget_environment() -> None:
    """No variable of the zygote's but PATH, and no way to gain privileges by exec.  Both are inherited: the
    template does this once, so that its children (which start with it) need not, each on the clock."""
    os.environ.clear()
    os.environ["PATH"] = "/usr/bin:/bin"
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def enter_environment(workdir: str) -> None:
    """A child's HOME and TMPDIR: its own directory."""
    os.environ["HOME"] = os.environ["TMPDIR"] = workdir


def drop_privileges(child_uid: int | None) -> None:
    """The child's own uid, and then not dumpable (a uid change resets both flags below)."""
    if child_uid is not None:
        os.setgroups([])
        os.setresgid(child_uid, child_uid, child_uid)
        os.setresuid(child_uid, child_uid, child_uid)
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def limit_child(limits: dict[str, Any], cpu_s: int, processes: int = 16) -> None:
    """The job's rlimits; only ever lowered, so this works after the uid change too.

    A timed job (``processes`` 1) can start neither a process nor a thread: the CPU clock the zygote
    reads is the child's own, so work done in another process would not be counted."""
    address_space = current_vm_bytes() + limits["memory_mb"] * 1024 * 1024
    for name, value in (
        (resource.RLIMIT_AS, address_space),
        (resource.RLIMIT_CPU, cpu_s),
        (resource.RLIMIT_FSIZE, 1024 * 1024),
        (resource.RLIMIT_NOFILE, 64),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, processes),
    ):
        hard = value + 1 if name == resource.RLIMIT_CPU else value
        resource.setrlimit(name, (value, hard))


def run_cpu_s(job: dict[str, Any], first: int) -> int:
    """The CPU rlimit of a child running tests[first:] (and the ``more_tests`` hidden ones sent later): loading
    plus every test, or the budget (two, one for the examples and one for the hidden tests, in such a job)."""
    limits = job["limits"]
    more = job.get("more_tests") or 0
    per_test: float = limits["time_limit_s"] * (len(job["tests"]) - first + more + 1)
    if limits.get("budget_s") is not None:
        per_test = min(per_test, limits["budget_s"] * (2 if more else 1) + limits["time_limit_s"])
    return math.ceil(per_test) + 1


def current_vm_bytes() -> int:
    """This process's address space now (``VmSize``), read without a text file object: every child reads it."""
    try:
        fd = os.open("/proc/self/status", os.O_RDONLY | os.O_CLOEXEC)
        try:
            status = os.read(fd, 1 << 16)
        finally:
            os.close(fd)
        at = status.index(b"\nVmSize:")
        return int(status[at + 8 :].split(None, 1)[0]) * 1024
    except (OSError, ValueError, IndexError):
        return 512 * 1024 * 1024
