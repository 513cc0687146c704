"""The template: the process every job's child is forked from.

The zygote forks it once at start-up; it forks a *spare* child on request,
hardens and warms it, hands its two pipes to the zygote over a socket pair, and
reports every exit status (only a parent can wait for a child).
"""

from __future__ import annotations

import ctypes
import gc
import mmap
import os
import random
import select
import shutil
import signal
import socket
import struct
import threading
from itertools import count
from typing import Any

from sandbox import protocol as P
from sandbox.zygote.child import child_main, rehearse, warm_up
from sandbox.zygote.hardening import (
    PR_SET_PDEATHSIG,
    drop_privileges,
    enter_environment,
    forget_environment,
    isolate_child,
    limit_child,
    prctl,
    run_cpu_s,
)


class Spare:
    """A child forked and hardened ahead of time, waiting for its job on a pipe."""

    def __init__(self, pid: int, job_fd: int, report_fd: int, workdir: str) -> None:
        self.pid, self.job_fd, self.report_fd, self.workdir = pid, job_fd, report_fd, workdir


def fork_spare(scratch: str, child_uid: int | None, staged_fd: int | None = None) -> Spare:
    """Fork, isolate and warm a child now; it reads ``first`` + the raw run request later.
    ``staged_fd``: the sealed inputs of a timed measurement (``take_staged``), kept open only for a job that
    uses them.

    Only trusted code runs in it until the job arrives, and it keeps the zygote's
    uid, and its directory stays root's, until then: it is forked while the previous
    job's processes may still live, and they can neither signal nor trace a process
    of another uid, nor enter its directory, nor kill it when their uid's processes
    are killed.
    """
    workdir = make_workdir(scratch)  # 0700, root's until the job arrives
    job_read, job_write = os.pipe()
    report_read, report_write = os.pipe()
    # Objects that exist now are never collected in the child: its collections then
    # leave their pages shared instead of copying them (each copy is a page fault).
    gc.freeze()
    try:
        pid = fork_alone()
    except OSError:
        for fd in (job_read, job_write, report_read, report_write):
            os.close(fd)
        shutil.rmtree(workdir, ignore_errors=True)
        raise
    if pid == 0:
        status = 0
        try:
            os.close(job_write)
            os.close(report_read)
            isolate_child([job_read, report_write, *([staged_fd] if staged_fd is not None else [])], workdir)
            enter_environment(workdir)  # the rest of its environment is the template's (forget_environment)
            rehearse(job_read)
            requests = os.fdopen(job_read, "rb")
            first = P.HEADER.unpack(P.read_exact(requests, P.HEADER.size))[0]
            job = P.read_frame(requests, copy=False)  # its arrays are read from the frame, not copied out first
            if not job.get("more_tests") and not job.get("timed"):
                requests.close()
            staged = take_staged(staged_fd, job)  # before the rlimits: its pages count in the address space
            if child_uid is not None:
                os.chown(workdir, child_uid, child_uid)
            drop_privileges(child_uid)
            limit_child(job["limits"], run_cpu_s(job, first), processes=1 if job.get("timed") else 16)
            with os.fdopen(report_write, "wb") as report:
                child_main(job, first, report, requests if job.get("more_tests") or job.get("timed") else None, staged)
        except BaseException:
            status = 70
        finally:
            os._exit(status)
    os.close(job_read)
    os.close(report_write)
    return Spare(pid, job_write, report_read, workdir)


_workdirs = count()


def make_workdir(scratch: str) -> str:
    """A new directory (0700, root's) for the next child, under ``scratch`` (absolute).

    Named by a counter, not by ``tempfile.mkdtemp``: the template writes to every page of its own that its Python
    code touches, and each such page is shared with a live child, so copied (a page fault, about 2.5 us here);
    ``mkdtemp``'s random names, checks and path handling took 56 of the template's ~160 copies per fork (0.1 ms).
    An unpredictable name protects nothing here: the scratch directory is root's (0711), so a job's processes can
    neither list it nor create anything in it, and this directory stays root's until its child's job arrives."""
    while True:
        workdir = f"{scratch}/{os.getpid()}-{next(_workdirs)}"
        try:
            os.mkdir(workdir, 0o700)
        except FileExistsError:
            continue  # left by an earlier template of this zygote's scratch: the next number
        return workdir


# The C library's fork, called with the GIL held (a PyDLL function does not release it).
_libc_fork = ctypes.PyDLL(None, use_errno=True).fork


def fork_alone() -> int:
    """``os.fork()`` without CPython's repairs of a forked child, in a process of one thread.

    After a fork, CPython re-creates the locks and thread states other threads may have held, and runs the
    at-fork hooks (``threading`` rebuilds its table of threads, ``random`` reseeds): about 190 of the 250 pages
    a child wrote before its first line, each a page copied (0.5 ms of CPU per child).  The template runs one
    thread and holds no lock as it forks, so there is nothing to repair; only ``random`` is reseeded, so that
    each job's code draws other numbers, as before.  With another thread, it is ``os.fork()``.
    """
    if threading.active_count() != 1:
        return os.fork()
    pid = int(_libc_fork())
    if pid < 0:
        raise OSError(ctypes.get_errno(), "fork failed")
    if pid == 0:
        random.seed()
    return pid


def take_staged(staged_fd: int | None, job: dict[str, Any]) -> memoryview | None:
    """The staged inputs mapped read-only for a timed job that uses them (``"staged"``), else closed unread: a
    child of any other job never holds them.  The memfd is sealed against writes, so no child can change what
    the next one reads; a private mapping of it is the child's own."""
    if staged_fd is None:
        return None
    try:
        if not (job.get("timed") and job.get("staged")) or os.fstat(staged_fd).st_size == 0:
            return None
        return memoryview(mmap.mmap(staged_fd, 0, mmap.MAP_SHARED | mmap.MAP_POPULATE, mmap.PROT_READ))
    finally:
        os.close(staged_fd)


SPARE, EXITED, FAILED, FORK, STAGE = b"S", b"X", b"F", b"f", b"s"
PID_STATUS = struct.Struct(">ii")


def template_main(control: socket.socket, scratch: str, child_uid: int | None) -> None:
    """Fork spares on request, hand their pipes to the zygote, report every exit status.

    After a fork, every page either process writes is copied on its first write: a
    page fault, which costs microseconds here.  The zygote does the judge's work on
    every job, so if it forked the children itself it would pay that on the clock,
    a few hundred times per job.  The template, forked from it once, does nothing
    but fork, and the zygote's own pages stay its own.  Only a parent can wait for a
    child, so the template reports each exit status to the zygote.
    """
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    scratch = os.path.abspath(scratch)
    keep = sorted({0, 1, 2, control.fileno()})
    for low, high in zip(keep, keep[1:] + [65536]):
        os.closerange(low + 1, high)
    staged_fd: int | None = None  # a timed measurement's inputs (``Zygote.stage``), for the spares forked from now on
    wakeup_read, wakeup_write = os.pipe()
    os.set_blocking(wakeup_write, False)
    signal.set_wakeup_fd(wakeup_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    forget_environment()
    warm_up()
    gc.collect()  # the warm-up's garbage, once, before fork_spare freezes what is left
    while True:
        ready = select.select([control, wakeup_read], [], [])[0]
        if wakeup_read in ready:
            os.read(wakeup_read, 4096)
            report_exits(control)
        if control in ready:
            message, fds, _, _ = socket.recv_fds(control, 16, 1)
            if not message:
                return  # the zygote is gone
            if message[:1] == STAGE:
                if staged_fd is not None:
                    os.close(staged_fd)
                staged_fd = fds[0] if fds else None
                continue
            for fd in fds:
                os.close(fd)
            try:
                spare = fork_spare(scratch, child_uid, staged_fd)
            except OSError:
                control.send(FAILED)
                continue
            fds = [spare.job_fd, spare.report_fd]
            socket.send_fds(control, [SPARE + PID_STATUS.pack(spare.pid, 0) + spare.workdir.encode()], fds)
            for fd in fds:
                os.close(fd)


def report_exits(control: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        control.send(EXITED + PID_STATUS.pack(pid, status))
