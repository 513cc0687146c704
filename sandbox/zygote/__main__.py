"""The zygote: imports NumPy once, then forks one hardened child per job (``python -m sandbox.zygote``)."""

from __future__ import annotations

import argparse
import os
import select
import socket
import sys
import tempfile

import numpy as np

from sandbox import protocol as P
from sandbox.zygote.cleanup import unused_uid
from sandbox.zygote.hardening import PR_SET_CHILD_SUBREAPER, PR_SET_DUMPABLE, isolate, keep_niceness, prctl
from sandbox.zygote.supervisor import Zygote


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--child-uid", default=None, help="run children under this uid ('auto': a random unused uid above 200000)"
    )
    parser.add_argument("--isolate", action="store_true", help="new network and mount namespace")
    parser.add_argument("--mask", action="append", default=[], help="hide this directory")
    parser.add_argument("--keep", action="append", default=[], help="but keep this one read-only")
    parser.add_argument("--scratch", default=None, help="where children get their directories")
    parser.add_argument(
        "--connect", default=None, metavar="PATH", help="speak the protocol on this Unix socket instead of stdin/stdout"
    )
    parser.add_argument(
        "--reap-after-reply",
        action="store_true",
        help="wait for a finished job's killed child after sending `done` (the Docker backend)",
    )
    options = parser.parse_args(argv)
    keep_large_blocks()
    keep_niceness()  # the process backend starts it in a session, so an autogroup, of its own

    if options.connect:
        judge = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        judge.connect(options.connect)
        channel = judge.detach()
        requests, out = os.fdopen(channel, "rb", buffering=0), os.fdopen(os.dup(channel), "wb")
    else:
        # The protocol owns the original stdin/stdout; anything printed lands on stderr.
        requests = os.fdopen(os.dup(0), "rb", buffering=0)
        out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    if options.isolate:
        isolate(options.mask, options.keep)
    scratch = options.scratch or tempfile.mkdtemp(prefix="zygote-")
    os.chmod(scratch, 0o711)
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 1)  # a job's orphans come back here to be reaped
    child_uid = options.child_uid
    if child_uid == "auto":
        child_uid = unused_uid()
    zygote = Zygote(out, scratch, int(child_uid) if child_uid is not None else None)
    zygote.reap_after_reply = options.reap_after_reply
    while True:
        # While idle, the template's messages are taken as they come: a dying template
        # ends this zygote at once, so the judge sees the container gone before the next job.
        if zygote.template in select.select([requests, zygote.template], [], [])[0]:
            if not select.select([requests], [], [], 0)[0]:
                zygote.receive(0)
                continue
        try:
            raw = P.read_exact(requests, P.HEADER.size)
            raw = P.read_exact(requests, P.HEADER.unpack(raw)[0])
        except EOFError:
            zygote.discard_spare()
            return
        request = P.decode_body(raw, copy=False)  # the arrays stay in ``raw``: the zygote only passes them on
        op = request.get("op")
        if op == "ping":
            zygote.emit(
                {
                    "event": "pong",
                    "numpy": np.__version__,
                    "python": sys.version.split()[0],
                    "uid": os.getuid(),
                    "pid": os.getpid(),
                    "child_uid": zygote.child_uid,
                }
            )
        elif op == "run":
            zygote.run(request, raw)
        elif op == "generate":
            zygote.generate(request)
        elif op == "exit":
            zygote.discard_spare()
            return
        else:
            zygote.emit({"event": "error", "message": f"unknown op {op!r}"})
        # Between requests, off the judge's clock: the next job's child waits ready.
        zygote.reap_dying()
        zygote.prepare_spare()


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def keep_large_blocks() -> None:
    """Large blocks (a test's arrays, its frame, the .npy of its result) come from the heap and stay there when
    freed, in this process and every child forked from it.  By default glibc maps each block over 128 KiB
    afresh and unmaps it when freed, so a child paid a page fault (several microseconds here) per 4 KiB every
    time a job's arrays were copied, decoded or encoded again.  A child lives for one job: what it keeps is
    freed with it."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024)
        libc.mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024)
    except (OSError, AttributeError):  # not glibc: its own defaults
        pass


if __name__ == "__main__":
    main()
