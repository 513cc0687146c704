"""The interface every sandbox backend offers to the judge.

A backend owns one zygote (a local process, or a process in a container) and
runs jobs on it one at a time.  It returns the zygote's events *unvalidated*:
deciding what they mean is the judge's job (``engine/``), which treats them
as hostile data.  A backend raises ``SandboxError`` when the sandbox itself
failed (died, hung, spoke nonsense); the caller then retries on a fresh one.
"""

from __future__ import annotations

import logging
import os
import select
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

from sandbox import protocol as P

# The zygote's environment in every backend: glibc's allocator asks for transparent huge pages (where the kernel
# gives them on request, ``madvise``), so a job's large arrays take one page fault per 2 MiB instead of one
# per 4 KiB: a child's faults on the full prepend_class_token set fell from about 2,500 to 1,300, and its CPU
# by about 15% (issue 45).  Read by glibc as the process starts; the child's own environment is emptied.
ZYGOTE_ENVIRONMENT = {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}

# Slack on top of the per-test limits for start-up, fork and transfer.
JOB_SLACK_S = 10.0
# How long a zygote may take, after a job's ``done``, to kill what the job left and say ``clean``.
SETTLE_TIMEOUT_S = 10.0


# One line per job, on a logger of its own: ``manage.py sync_problems``, whose gates run hundreds of jobs, quiets
# it unless asked (-v 2).
job_log = logging.getLogger("sandbox.jobs")


def log_job(job: Job | GenerateJob, run: JobRun, where: str) -> None:
    """One line per job a worker sends (a timed one, 26 to a speed figure, and a generator's only at DEBUG): the
    worker's logging adds the id of the submission's request to it (judge/lib/logs.py)."""
    graded = isinstance(job, Job) and not job.timed
    job_log.log(
        logging.INFO if graded else logging.DEBUG,
        "sandbox job: %d test(s) on %s, %d event(s) in %.0f ms%s",
        len(job.tests) if isinstance(job, Job) else 0,
        where,
        len(run.events),
        run.elapsed_ms,
        f", anomaly: {run.anomaly}" if run.anomaly else "",
    )


class SandboxError(Exception):
    """The sandbox failed, not the student's code; the job may be retried."""


@dataclass(frozen=True)
class JobTest:
    name: str
    # parameter name -> .npy bytes (an array), {key: .npy bytes} (a ``params`` dict of arrays) or a plain
    # int, float or bool (inf and nan allowed)
    args: dict[str, bytes | dict[str, bytes] | int | float | bool]


@dataclass(frozen=True)
class Job:
    code: str
    function: str
    params: list[str]
    tests: list[JobTest]
    time_limit_s: float
    memory_mb: int
    output_bytes: int = P.MAX_OUTPUT_BYTES
    # The wall time all the tests may take together, from the first test's start (None: no budget).
    budget_s: float | None = None
    # Earlier problems' code the submission may import (``from solved import <slug>``): slug -> source.
    modules: dict[str, str] = field(default_factory=dict)
    # "tuple" or "dict" when the function returns several arrays: the child then reports the container's
    # members one by one (each its own .npy), and the judge checks them against the declared names.
    returns: str | None = None
    # Timed (one test, ``engine/speed.py``): the child may start no process or thread, and the zygote
    # follows each test event with ``{"event": "cpu", "name", "cpu_ms"}``, the child's CPU time it read.
    timed: bool = False
    # Digests (a timed job whose inputs' results the judge has checked before): each array result is reported
    # as the sha256 of its .npy (``output_sha256``), not the .npy itself.
    digest: bool = False
    # Where the hidden tests start among ``tests`` (None: all are of one kind): the child gets them only once
    # it has reported every example, and each part has its own ``budget_s``.
    hidden_from: int | None = None
    # Timed jobs of one measurement that run on the same inputs say so with one key (``engine/speed.py``): the
    # first sends them and the zygote keeps them ("stage"); the next ones on the same zygote send only the
    # tests' names ("staged", ``FrameChannel.request_of``).  None: the inputs travel with the job.
    stage: str | None = None

    def to_request(self) -> dict[str, Any]:
        return {
            "op": "run",
            **({"timed": True} if self.timed else {}),
            **({"digest": True} if self.digest else {}),
            **({"hidden_from": self.hidden_from} if self.hidden_from is not None else {}),
            "code": self.code,
            "modules": dict(self.modules),
            **({"returns": self.returns} if self.returns else {}),
            "function": self.function,
            "params": list(self.params),
            "tests": [{"name": t.name, "args": dict(t.args)} for t in self.tests],
            "limits": {
                "time_limit_s": self.time_limit_s,
                "memory_mb": self.memory_mb,
                "output_bytes": self.output_bytes,
                "budget_s": self.budget_s,
            },
        }

    def deadline_s(self) -> float:
        per_test = (len(self.tests) + 1) * (self.time_limit_s + 1.0) + JOB_SLACK_S
        if self.budget_s is None:
            return per_test
        # Loading (at most one test's limit), then the budget for every test together (the examples' and the
        # hidden tests' each, in a job with both).
        budgets = 2 if self.hidden_from is not None else 1
        return min(per_test, budgets * self.budget_s + self.time_limit_s + JOB_SLACK_S)

    def max_frame_bytes(self) -> int:
        return 2 * self.output_bytes + 512 * 1024

    def max_events(self) -> int:
        return len(self.tests) * (2 if self.timed else 1) + 2


@dataclass(frozen=True)
class GenerateJob:
    """Run a problem author's test generator; ``sandbox.run`` accepts it like a Job."""

    code: str
    seed: int
    params: list[str]
    time_limit_s: float = 30.0
    memory_mb: int = 1024
    output_bytes: int = P.MAX_OUTPUT_BYTES  # per argument of one case
    max_cases: int = 200

    def to_request(self) -> dict[str, Any]:
        return {
            "op": "generate",
            "code": self.code,
            "seed": self.seed,
            "params": list(self.params),
            "max_cases": self.max_cases,
            "limits": {
                "time_limit_s": self.time_limit_s,
                "memory_mb": self.memory_mb,
                "output_bytes": self.output_bytes,
            },
        }

    def deadline_s(self) -> float:
        return self.time_limit_s + JOB_SLACK_S

    def max_frame_bytes(self) -> int:
        return 2 * self.output_bytes * max(1, len(self.params)) + 512 * 1024

    def max_events(self) -> int:
        return self.max_cases + 1


@dataclass
class JobRun:
    """What a backend hands back: the raw events and how long the round trip took."""

    events: list[dict[str, Any]]
    elapsed_ms: float
    anomaly: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    slowed: bool = False  # a test ran past half its limit: the rest of the job ran at a lower CPU weight


class Sandbox(ABC):
    """One warm zygote.  Not thread-safe: one job at a time."""

    name = "abstract"
    pool_size = 1  # warm zygotes kept (the Docker pool's containers)
    recycled = 0  # zygotes replaced after a job: a limit hit, something left behind, a failure, their age

    @abstractmethod
    def run(self, job: Job | GenerateJob) -> JobRun: ...

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FrameChannel(P.FrameReader):
    """Frames over a pair of file descriptors, with deadlines on every read."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        super().__init__()
        self.read_fd = read_fd
        self.write_fd = write_fd
        self.unsettled = False  # a job's ``done`` came, its ``clean`` not yet
        self.staged: str | None = None  # the ``Job.stage`` whose inputs this zygote keeps
        # Called when the zygote says a test has run past half its limit (``slow``); the Docker pool lowers
        # that container's CPU weight.  The event is the zygote's own: a child cannot send it.
        self.on_slow: Callable[[], None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        data = memoryview(P.encode_frame(message))
        while data:
            written = os.write(self.write_fd, data)
            data = data[written:]

    def receive(self, deadline: float, max_bytes: int = P.MAX_FRAME_BYTES) -> dict[str, Any]:
        try:
            return self.next_frame(deadline, max_bytes)[1]
        except P.FrameTooLarge as exc:
            raise SandboxError(f"sandbox sent a frame of {exc.size} bytes") from None
        except P.FrameTimeout:
            raise SandboxError("sandbox did not answer in time") from None
        except P.ProtocolError as exc:
            raise SandboxError(str(exc)) from None

    def read_some(self, timeout: float) -> bytes:
        """Whatever the zygote wrote within ``timeout`` (maybe nothing); SandboxError at its end."""
        ready, _, _ = select.select([self.read_fd], [], [], timeout)
        if not ready:
            return b""
        chunk = os.read(self.read_fd, 1 << 20)
        if not chunk:
            raise SandboxError("sandbox closed its output")
        return chunk

    def idle_and_healthy(self) -> bool:
        """An idle zygote writes nothing: anything readable means it died or misbehaved."""
        ready, _, _ = select.select([self.read_fd], [], [], 0)
        return not ready and not self.buffer and not self.unsettled

    def run_job(self, job: Job | GenerateJob) -> JobRun:
        """Send one job (a run or a generate) and collect its events until ``done``.

        The zygote cleans up after ``done``; call ``settle`` before the next request.
        """
        if self.unsettled:
            raise SandboxError("the previous job was not settled")
        started = time.monotonic()
        deadline = started + job.deadline_s()
        self.send(self.request_of(job))
        events: list[dict[str, Any]] = []
        max_frame, slow = job.max_frame_bytes(), 0
        while True:
            event = self.receive(deadline, max_frame)
            if event.get("event") == "done":
                self.unsettled = True
                anomaly = event.get("anomaly")
                return JobRun(
                    events,
                    (time.monotonic() - started) * 1000,
                    anomaly if isinstance(anomaly, str) else None,
                    slowed=slow > 0,
                )
            if event.get("event") == "slow":  # at most one per child, so per test; acted on once
                slow += 1
                if slow == 1 and self.on_slow is not None:
                    self.on_slow()
                if slow <= job.max_events():
                    continue
            events.append(event)
            if len(events) > job.max_events():
                raise SandboxError("sandbox sent more events than the job allows")

    def request_of(self, job: Job | GenerateJob) -> dict[str, Any]:
        """The job's request; a timed job of a measurement whose inputs this zygote keeps carries only the tests'
        names, and the first of its measurement here asks the zygote to keep them (``Job.stage``)."""
        request = job.to_request()
        if not isinstance(job, Job) or job.stage is None or not job.timed:
            return request
        if self.staged == job.stage:
            return request | {"staged": True, "tests": [{"name": t.name} for t in job.tests]}
        self.staged = job.stage  # kept from this job on; a zygote that fails is replaced, and forgets it
        return request | {"stage": True}

    def settle(self, timeout_s: float = SETTLE_TIMEOUT_S) -> str | None:
        """Wait for the last job's ``clean``: None, or why the zygote should be recycled.

        SandboxError when it does not come in time or something else comes instead.
        """
        if not self.unsettled:
            return None
        reply = self.receive(time.monotonic() + timeout_s, 64 * 1024)
        if reply.get("event") != "clean":
            raise SandboxError(f"sandbox sent {str(reply.get('event'))[:40]!r} instead of 'clean'")
        self.unsettled = False
        anomaly = reply.get("anomaly")
        return anomaly[:500] if isinstance(anomaly, str) else None

    def ping(self, timeout_s: float) -> dict[str, Any]:
        if self.unsettled:
            raise SandboxError("the previous job was not settled")
        self.send({"op": "ping"})
        reply = self.receive(time.monotonic() + timeout_s, 64 * 1024)
        if reply.get("event") != "pong":
            raise SandboxError(f"sandbox answered a ping with {reply!r:.200}")
        return reply
