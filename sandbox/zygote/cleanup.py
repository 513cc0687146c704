"""Cleanup after a job: every process of the child's uid killed, its System V IPC objects and directory removed."""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from collections.abc import Set as AbstractSet

from sandbox.zygote.hardening import libc


def clean_up(child_uid: int | None, workdir: str, dying: set[int], keep: set[int], anomalies: list[str]) -> None:
    """Kill every process the child's uid still has, and remove its directory.

    Children killed by us but not yet reaped (``dying``) are no strays; ``keep`` are
    the zygote's own children (its template), never reaped here.
    """
    if child_uid is not None and kill_uid(child_uid, dying):
        anomalies.append("a process outlived the job")
    reap_orphans(keep)
    if child_uid is not None and remove_ipc_of(child_uid):
        anomalies.append("the job left System V IPC objects")
    if os.listdir(workdir):
        anomalies.append("the job left files in its scratch directory")
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        os.rmdir(workdir)  # what nearly every job leaves: an empty directory, one system call


def reap_orphans(keep: set[int]) -> None:
    """Reap the killed descendants this zygote adopted as their subreaper, but those in ``keep``.

    Left to an init that never reaps, they would stay zombies of the student's
    uid and count against its process limit in every later job.
    """
    data = read_proc(f"/proc/self/task/{os.getpid()}/children", whole=True)
    if data is None:
        return
    adopted = [int(pid) for pid in data.split()]
    for pid in adopted:
        if pid not in keep:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def kill_uid(uid: int, dying: AbstractSet[int] = frozenset()) -> bool:
    """Kill every process of ``uid`` (the student's) but ``dying``; True if a live one was there.

    A scan of /proc can miss a process forked while it runs: it lists the pids,
    then the parent forks and exits, and the parent is a zombie by the time its
    status is read.  So a zombie of the uid is reason enough to kill(-1) as the
    uid, which the kernel applies to every process at once.
    """
    live, dead = scan_uid(uid, exclude=dying)
    if not live and not dead:
        return False
    pid = os.fork()
    if pid == 0:
        found = 0
        try:
            # As that uid, kill(-1) reaches exactly that uid's processes.
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            found = int(bool(processes_of(uid, exclude=dying | {os.getpid()})))
            for _ in range(50):
                os.kill(-1, signal.SIGKILL)
                if not processes_of(uid, exclude=dying | {os.getpid()}):
                    break
                time.sleep(0.01)
        finally:
            os._exit(found)
    _, status = os.waitpid(pid, 0)
    return bool(live) or (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1)


def remove_ipc_of(uid: int) -> bool:
    """Remove the System V shared memory, queues and semaphores ``uid`` owns; True if any.

    They outlive processes and would carry data into the next job.
    """
    owned = _ipc_of(uid)
    if not owned:
        return False
    pid = os.fork()
    if pid == 0:
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            for kind, ipc_id in owned:  # as the owner, IPC_RMID needs no capability
                if kind == "shm":
                    libc.shmctl(ipc_id, 0, None)
                elif kind == "msg":
                    libc.msgctl(ipc_id, 0, None)
                else:
                    libc.semctl(ipc_id, 0, 0)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    return True


IPC_ID_COLUMN = {"shm": "shmid", "msg": "msqid", "sem": "semid"}


def _ipc_of(uid: int) -> list[tuple[str, int]]:
    """(kind, id) of the System V IPC objects owned or created by ``uid``, from /proc/sysvipc."""
    found = []
    for kind in ("shm", "msg", "sem"):
        data = read_proc(f"/proc/sysvipc/{kind}", whole=True)
        if data is None or data.count(b"\n") < 2:
            continue  # unreadable, or its header alone: no object of any uid (a container's own IPC namespace)
        try:
            header, *rows = [line.split() for line in data.decode().splitlines()]
        except (UnicodeDecodeError, ValueError):
            continue
        columns = {name: index for index, name in enumerate(header)}
        for row in rows:
            try:
                if uid in (int(row[columns["uid"]]), int(row[columns["cuid"]])):
                    found.append((kind, int(row[columns[IPC_ID_COLUMN[kind]]])))
            except (KeyError, IndexError, ValueError):
                continue
    return found


def unused_uid() -> int:
    """A uid no process has: pids are reused, so a uid derived from one could meet old strays."""
    rng = random.SystemRandom()
    while True:
        uid = rng.randrange(200_000, 2_000_000_000)
        if not processes_of(uid):
            return uid


def processes_of(uid: int, exclude: AbstractSet[int] = frozenset()) -> list[int]:
    """Live (not zombie) processes whose real uid is ``uid``, but those in ``exclude``."""
    return scan_uid(uid, exclude)[0]


def scan_uid(uid: int, exclude: AbstractSet[int] = frozenset()) -> tuple[list[int], list[int]]:
    """(live processes, zombies) whose real uid is ``uid``, but those in ``exclude``: one pass of /proc."""
    live: list[int] = []
    dead: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        status = read_proc(f"/proc/{entry}/status")
        if status is None:
            continue
        fields = status_fields(status)
        if fields is not None and fields[0] == uid:
            (dead if fields[1] in (b"Z", b"X") else live).append(int(entry))
    return live, dead


def status_fields(status: bytes) -> tuple[int, bytes] | None:
    """(real uid, state letter) from a /proc/<pid>/status, None if it has no Uid line.  The first line is the
    process's name, which it chooses, so both fields are looked for after it (the kernel escapes a newline in it)."""
    start = status.find(b"\n")
    uid_at, state_at = status.find(b"\nUid:", start), status.find(b"\nState:", start)
    if start < 0 or uid_at < 0:
        return None
    try:
        real_uid = int(status[uid_at + 5 :].split(None, 1)[0])
    except (IndexError, ValueError):
        return None
    state = status[state_at + 7 :].lstrip()[:1] if state_at >= 0 else b""
    return real_uid, state


def read_proc(path: str, whole: bool = False) -> bytes | None:
    """A /proc file's first 4 KiB (a status's Uid and State lines are in its first kilobyte), or ``whole``, read
    without a Python file object: the cleanup reads a few after every job.  None if it is gone."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = os.read(fd, 4096)
        while whole and (more := os.read(fd, 1 << 16)):
            data += more
        return data
    except OSError:
        return None
    finally:
        os.close(fd)
