"""The process backend: the zygote runs as a local subprocess.

This is the embedded default for machines without Docker.  Running as root,
the zygote gets its own network namespace (no network at all) and mount
namespace (the project, /tmp, /run, home directories and service state hidden
under empty tmpfs mounts), and children run under an unprivileged uid of their
own.  Without root none of that is possible: children then share the worker's
uid and file system, which is why the site warns that this backend is weaker
than Docker.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sandbox.backends.base import (
    ZYGOTE_ENVIRONMENT,
    FrameChannel,
    GenerateJob,
    Job,
    JobRun,
    Sandbox,
    SandboxError,
    log_job,
)

log = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[2]
THREAD_VARIABLES = (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
# Older OpenBLAS builds need these on some processors; they are not secrets.
PASSED_THROUGH = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
MASKED = (
    "/tmp",
    "/var/tmp",
    "/run",
    "/home",
    "/root",
    "/var/lib",
    "/var/log",
    "/var/spool",
    "/srv",
    "/mnt",
    "/media",
    "/work",
)

# Never masked, whatever the checkout's location: the system needs them.
SYSTEM_DIRS = {Path(p) for p in ("/", "/usr", "/bin", "/lib", "/lib64", "/etc", "/proc", "/dev", "/sys", "/opt")}


def is_isolated() -> bool:
    """Whether this machine gives the process backend namespaces and a separate uid."""
    return os.geteuid() == 0


class ProcessSandbox(Sandbox):
    name = "process"

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.channel: FrameChannel | None = None
        self.info: dict[str, Any] = {}

    def command(self) -> list[str]:
        command = [sys.executable, "-s", "-B", "-m", "sandbox.zygote"]
        if is_isolated():
            masks = list(MASKED) + [str(p) for p in (REPO_ROOT, REPO_ROOT.parent) if p not in SYSTEM_DIRS]
            keeps = sorted({sys.base_prefix, sys.prefix})
            command += ["--child-uid", "auto", "--isolate"]
            command += [f"--mask={m}" for m in masks] + [f"--keep={k}" for k in keeps]
        return command

    def start(self) -> None:
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
        env |= dict.fromkeys(THREAD_VARIABLES, "1") | ZYGOTE_ENVIRONMENT
        env |= {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ}
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=tempfile.gettempdir(),
            env=env,
            close_fds=True,
            start_new_session=True,
        )
        assert self.process.stdout is not None and self.process.stdin is not None  # both are pipes
        self.channel = FrameChannel(self.process.stdout.fileno(), self.process.stdin.fileno())
        try:
            self.info = self.channel.ping(timeout_s=60)
        except SandboxError:
            self.close()
            raise

    def run(self, job: Job | GenerateJob) -> JobRun:
        if self.process is None or self.process.poll() is not None:
            self.start()
        assert self.channel is not None  # start() made it
        try:
            result = self.channel.run_job(job)
        except (SandboxError, OSError) as exc:
            self.close()
            self.recycled += 1
            raise SandboxError(f"process sandbox failed: {exc}") from None
        # Unlike the Docker pool, which settles in the background, wait for the cleanup
        # here: this backend is for machines without Docker, where a millisecond is cheap.
        # Always, even when the sandbox will be recycled: killing the zygote's process group
        # would not reach what the job started in sessions of its own; the cleanup does.
        try:
            leftovers = self.channel.settle()
        except (SandboxError, OSError) as exc:
            leftovers = f"it did not clean up: {exc}"
        anomaly = "; ".join(filter(None, (result.anomaly, leftovers)))
        result.info = self.info
        log_job(job, result, "the process sandbox")
        if anomaly:
            log.info("recycling the process sandbox: %s", anomaly)
            self.recycled += 1
            self.close()
        return result

    def close(self) -> None:
        if self.process is None:
            return
        if self.channel is not None and self.channel.unsettled and self.process.poll() is None:
            try:
                self.channel.settle(timeout_s=5.0)  # let the zygote kill what the last job left
            except (SandboxError, OSError):
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()  # type: ignore[union-attr]  # both are pipes: never None
            except OSError:
                pass
        self.process.wait()
        self.process = None
        self.channel = None
