"""The zygote proper: takes each job, hands it to a child, relays its reports and enforces the time limits.

Each job runs in a fresh child (``template``) that is its own session and process
group, runs under a uid different from the zygote's, is not dumpable, has rlimits
(``hardening``), and keeps only the one pipe it reports on.  The zygote enforces a
wall-clock limit per test, and the job's budget, and kills the child's whole group
when one runs out; that test is reported as a timeout and ends the job.  If a
child dies mid-job, the zygote reports that test and forks a fresh child for the
remaining ones.  After ``done``, ``cleanup`` kills every process of the child's uid.
"""

from __future__ import annotations

import fcntl
import gc
import math
import os
import select
import shutil
import signal
import socket
import tempfile
import time
from typing import Any, BinaryIO

from sandbox import protocol as P
from sandbox.zygote.child import generate_main
from sandbox.zygote.cleanup import clean_up
from sandbox.zygote.hardening import harden_child
from sandbox.zygote.template import EXITED, FORK, PID_STATUS, SPARE, STAGE, Spare, template_main


class Budget:
    """The wall time a job's tests may take together, counted from the first test's start; in a job with
    hidden tests (``hidden_from``), the examples' and the hidden tests' each, as two jobs had."""

    def __init__(self, budget_s: float | None) -> None:
        self.budget_s = budget_s
        self.deadline: float | None = None
        self.hidden = False

    def start(self) -> None:
        if self.deadline is None and self.budget_s is not None:
            self.deadline = time.monotonic() + self.budget_s

    def start_hidden(self) -> None:
        """The hidden tests' budget, counted from their first test's start (``start``)."""
        if not self.hidden:
            self.hidden, self.deadline = True, None


# A test that has not reported after this share of its time limit is probably a loop: the rest of its job runs
# at an eighth of the CPU weight (``Zygote.slow_down`` here, the container's cgroup for the Docker backend), so
# that on a busy machine it stops taking the CPU the other students' tests need.  An idle CPU is still its own.
SLOW_AFTER = 0.5
SLOW_NICE = 9  # nice 9 weighs 137 against nice 0's 1024: an eighth


class ReportStream(P.FrameReader):
    """Frames from a child's report pipe, read against a deadline the caller can move."""

    copy_attachments = False  # a result is relayed as it came (its body), never copied out of it

    def __init__(self, read_fd: int, max_frame: int, timeout_s: float) -> None:
        super().__init__()
        self.read_fd, self.max_frame = read_fd, max_frame
        self.extend(timeout_s)

    def extend(self, timeout_s: float) -> None:
        """A new wait of ``timeout_s`` (one test's limit) from now."""
        self.started = time.monotonic()
        self.deadline = self.started + timeout_s
        self.slow_at = self.started + timeout_s * SLOW_AFTER
        self.by_budget = False

    def limit(self, deadline: float | None) -> None:
        """End the wait at ``deadline`` (the job's budget) if that comes first."""
        if deadline is not None and deadline < self.deadline:
            self.deadline, self.by_budget = deadline, True

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    def read_some(self, timeout: float) -> bytes:
        if not select.select([self.read_fd], [], [], timeout)[0]:
            return b""
        chunk = os.read(self.read_fd, 1 << 20)
        if not chunk:
            raise EOFError("the child closed its report pipe")
        return chunk

    def next(self, slow: bool = False) -> tuple[bytes, dict[str, Any]] | str:
        """The next (body, message), or why there is none: timeout, eof, too_large or malformed; with
        ``slow``, also "slow" once, when nothing came within ``SLOW_AFTER`` of the test's limit."""
        watch = slow and self.slow_at < self.deadline
        try:
            return self.next_frame(self.slow_at if watch else self.deadline, self.max_frame)
        except P.FrameTimeout:
            if watch:
                self.slow_at = math.inf
                return "slow"
            return "timeout"
        except EOFError:
            return "eof"
        except P.FrameTooLarge:
            return "too_large"
        except P.ProtocolError:
            return "malformed"


class Zygote:
    """One job at a time, each in a child the template forked; relays and supervises it."""

    def __init__(self, out: BinaryIO, scratch: str, child_uid: int | None) -> None:
        self.out = out
        self.scratch = scratch
        self.child_uid = child_uid
        self.spare: Spare | None = None
        self.spare_requested = False
        self.reap_after_reply = False
        self.dying: list[int] = []  # killed children whose exit has not been waited for
        self.statuses: dict[int, int] = {}  # exit statuses the template reported
        self.staged: dict[str, dict[str, Any]] = {}  # test name -> its arguments in the staged memfd (``stage``)
        self.template, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        gc.freeze()
        self.template_pid = os.fork()
        if self.template_pid == 0:
            try:
                self.template.close()
                template_main(theirs, scratch, child_uid)
            finally:
                os._exit(0)
        theirs.close()

    def receive(self, timeout: float | None) -> bool:
        """Take one message of the template, waiting up to ``timeout`` (None: forever)."""
        if not select.select([self.template], [], [], timeout)[0]:
            return False
        data, fds, _, _ = socket.recv_fds(self.template, 4096, 2)
        if not data:
            raise SystemExit("the template process died")
        kind, body = data[:1], data[1:]
        if kind == EXITED:
            pid, status = PID_STATUS.unpack(body)
            self.statuses[pid] = status
        elif kind == SPARE and len(fds) == 2:
            pid, _ = PID_STATUS.unpack_from(body)
            self.spare = Spare(pid, fds[0], fds[1], body[PID_STATUS.size :].decode())
            self.spare_requested = False
        else:
            self.spare_requested = False
        return True

    def wait_status(self, pid: int, block: bool = True) -> int | None:
        """The exit status of a child of the template (None if it has not exited, without ``block``)."""
        while pid not in self.statuses:
            if not self.receive(None if block else 0):
                return None
        return self.statuses.pop(pid)

    def reap_dying(self, block: bool = False) -> None:
        """Reap the killed children that are gone (all of them, waiting, with ``block``).

        A killed child runs no code any more, so its teardown may overlap the next job;
        until it is reaped, cleanup() does not count it as a stray.
        """
        for pid in list(self.dying):
            if self.wait_status(pid, block) is not None:
                self.dying.remove(pid)

    def prepare_spare(self) -> None:
        """Ask the template for the next job's child, unless one is there or on its way."""
        if self.spare is None and not self.spare_requested:
            self.template.send(FORK)
            self.spare_requested = True

    def take_spare(self) -> Spare:
        """The waiting spare.  The next one is asked for at ``done`` (``finish``), not now: forked while this job
        runs, its fork, isolation and rehearsal (about 4 ms of CPU) took the CPU this job needed on a busy machine
        (a tiny job 10 ms apart, load 4.5: p50 3.8 -> 5.4 ms, bench/sandbox_latency.py), and back to back they
        gained nothing there, the CPU being the limit."""
        while self.receive(0):
            pass  # what the template said meanwhile; its end (and so its spare's) ends this zygote
        for _ in range(2):  # a second time after a failed fork: the pids may be free by now
            self.prepare_spare()
            while self.spare is None and self.spare_requested:
                self.receive(None)
            if self.spare is not None:
                spare, self.spare = self.spare, None
                return spare
        raise OSError("the template could not fork a child")

    def discard_spare(self) -> None:
        while self.spare is None and self.spare_requested:
            self.receive(None)
        spare, self.spare = self.spare, None
        if spare is not None:
            self.kill(spare.pid)
            for fd in (spare.job_fd, spare.report_fd):
                os.close(fd)
            self.wait_status(spare.pid)
            shutil.rmtree(spare.workdir, ignore_errors=True)

    def start_child(self, raw_job: bytes, first: int, keep_open: bool = False, job_bytes: int = 0) -> Spare:
        """The spare (or a fresh child), given its job; with ``keep_open``, its job pipe stays open for the
        hidden tests (``send_hidden``), and its pipes are sized for ``job_bytes``, the whole job's."""
        child = self.take_spare()
        widen_pipes(child, max(job_bytes, len(raw_job)))
        try:
            for part in (P.HEADER.pack(first) + P.HEADER.pack(len(raw_job)), raw_job):
                view = memoryview(part)
                while view:
                    view = view[os.write(child.job_fd, view) :]
        except BrokenPipeError:
            pass  # it died waiting: supervise() sees end-of-file and reports a crash
        if not keep_open:
            os.close(child.job_fd)
            child.job_fd = -1
        return child

    def send_hidden(self, child: Spare, frame: bytes, timeout_s: float) -> bool:
        """Hand the hidden tests to a child that has reported every example; False if it did not take them
        within ``timeout_s`` (it reads them at once, unless its code blocks it)."""
        deadline = time.monotonic() + timeout_s
        os.set_blocking(child.job_fd, False)
        view = memoryview(frame)
        try:
            while view:
                if not select.select([], [child.job_fd], [], max(0.0, deadline - time.monotonic()))[1]:
                    return False
                try:
                    view = view[os.write(child.job_fd, view) :]
                except BlockingIOError:
                    continue
        except BrokenPipeError:
            pass  # it died or closed the pipe: supervise() reads end-of-file and reports a crash
        finally:
            os.close(child.job_fd)
            child.job_fd = -1
        return True

    def emit(self, message: dict[str, Any], flush: bool = True) -> None:
        """Send a frame; results wait in the buffer for ``done`` (one wake-up of the judge, not one per test)."""
        for part in P.encode_parts(message):
            self.out.write(part)
        if flush:
            self.out.flush()

    def run(self, job: dict[str, Any], raw: bytes) -> None:
        """Run ``job``; ``raw`` is its frame's body, handed to the child as it came.

        It stops at the first test that ends in a timeout: no later test runs or is reported.
        """
        if job.get("timed") and job.get("stage"):
            self.stage(job)
        elif job.get("timed") and job.get("staged"):
            job = job | {
                "tests": [
                    {"name": t.get("name"), "args": self.staged.get(t.get("name"), UNSTAGED)} for t in job["tests"]
                ]
            }
            raw = P.encode_body(job)
        anomalies: list[str] = []
        index, child = 0, None
        budget = Budget(job["limits"].get("budget_s"))
        hidden_from = sealed_at(job)
        while index < len(job["tests"]):
            if child is not None:
                self.cleanup(*child, anomalies)  # the next child runs under the same uid
            if hidden_from is not None and index >= hidden_from:
                budget.start_hidden()
            child, index = self.run_child(job, raw, index, anomalies, budget, hidden_from)
        self.finish(anomalies, child)

    def stage(self, job: dict[str, Any]) -> None:
        """Keep a timed job's inputs for the next jobs of its measurement (``"staged"``: names only): written once
        into a memfd sealed against any change, which the template hands to every child it forks from now on
        (``template.take_staged``: mapped read-only by a job that uses it, closed unread by any other).  This
        job's own child was forked before and gets its inputs on its pipe, as every job does."""
        fd = os.memfd_create("staged", os.MFD_ALLOW_SEALING | os.MFD_CLOEXEC)
        try:
            offset, staged = 0, {}
            for test in job["tests"]:
                args: dict[str, Any] = {}
                for name, value in test["args"].items():
                    if isinstance(value, dict):
                        args[name] = {}
                        for key, item in value.items():
                            args[name][key], offset = write_staged(fd, item, offset)
                    else:
                        args[name], offset = write_staged(fd, value, offset)
                staged[test["name"]] = args
            fcntl.fcntl(
                fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_SEAL
            )
            socket.send_fds(self.template, [STAGE], [fd])
        finally:
            os.close(fd)
        self.staged = staged

    def finish(self, anomalies: list[str], child: tuple[int, str] | None) -> None:
        """``done`` as soon as every result is out, then the cleanup and ``clean``.

        The judge has what it needs at ``done``; it sends no next job before ``clean``,
        so nothing of this job can be alive when the next one starts.
        """
        self.emit({"event": "done", "anomaly": "; ".join(anomalies) or None})
        self.prepare_spare()  # the template forks the next job's child while this one is cleaned up
        leftovers: list[str] = []
        if child is not None:
            self.cleanup(*child, leftovers)
        self.await_spare()
        self.emit({"event": "clean", "anomaly": "; ".join(leftovers) or None})

    def await_spare(self) -> None:
        """Wait until the spare asked for at ``done`` is forked (or its fork failed: ``take_spare`` tries again).

        ``clean`` is then also "the next job's child is waiting": a pool that gives its next job to a container
        that has said ``clean`` never sends one to a zygote still forking, and back to back the jobs take turns
        between two containers, each job finding its child forked while the other container ran the last one
        (before, the job went back to the container it had just left in about half the cases, and waited for
        the fork in a third of all jobs)."""
        while self.spare is None and self.spare_requested:
            self.receive(None)

    def generate(self, job: dict[str, Any]) -> None:
        """One child runs the whole generator; its frames are relayed as they come."""
        self.discard_spare()  # it runs under the same uid, and cleanup kills that uid's processes
        self.reap_dying(block=True)
        limits = job["limits"]
        anomalies: list[str] = []
        workdir = tempfile.mkdtemp(dir=self.scratch)
        if self.child_uid is not None:
            os.chown(workdir, self.child_uid, self.child_uid)
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                os.close(read_fd)
                harden_child(write_fd, workdir, limits, self.child_uid, math.ceil(limits["time_limit_s"]) + 1)
                with os.fdopen(write_fd, "wb") as report:
                    generate_main(job, report)
            except BaseException:
                status = 70
            finally:
                os._exit(status)
        os.close(write_fd)
        failure = self.relay_generation(pid, read_fd, job)
        os.close(read_fd)
        _, wait_status = os.waitpid(pid, 0)
        if failure is not None:
            if failure == "died":
                failure = f"the generator {self.outcome_of_death(wait_status)['detail']}"
            self.emit(
                {"event": "generate_error", "error": {"type": "GeneratorFailed", "message": failure, "frames": []}}
            )
        self.finish(anomalies, (pid, workdir))

    def relay_generation(self, pid: int, read_fd: int, job: dict[str, Any]) -> str | None:
        """Relay case frames until the generator finishes; a reason if it did not finish cleanly."""
        limits = job["limits"]
        max_frame = 2 * limits["output_bytes"] * max(1, len(job["params"])) + 256 * 1024
        reports, cases = ReportStream(read_fd, max_frame, limits["time_limit_s"]), 0
        failures = {
            "timeout": f"the generator did not finish within {limits['time_limit_s']} s",
            "too_large": "the generator produced a case larger than the limit",
            "malformed": "the generator's process sent a malformed report",
        }
        while True:
            frame = reports.next()
            if frame == "eof":
                return "died"
            if isinstance(frame, str):
                self.kill(pid)
                return failures[frame]
            _, message = frame
            event = message.get("event")
            if event == "case" and cases < job["max_cases"]:
                self.emit(message, flush=False)
                cases += 1
            elif event in ("generated", "generate_error"):
                self.emit(message)
                self.kill(pid)
                return None
            else:
                self.kill(pid)
                return "the generator's process sent an unexpected report"

    def run_child(
        self,
        job: dict[str, Any],
        raw: bytes,
        first: int,
        anomalies: list[str],
        budget: Budget,
        hidden_from: int | None = None,
    ) -> tuple[tuple[int, str], int]:
        """Give tests[first:] to a hardened child; with ``hidden_from``, the examples among them first and the
        hidden tests only once it has reported every example (``child_request``).

        Returns the child's (pid, directory), still to be cleaned up, and the index
        of the next test to run (the number of tests when the job is over).
        """
        tests = job["tests"]
        oom_before = oom_kills()
        body, hidden = child_request(job, raw, first, hidden_from)
        timed = bool(job.get("timed"))  # its job pipe stays open for the clock's start (``supervise``)
        child = self.start_child(
            body, 0 if body is not raw else first, keep_open=hidden is not None or timed, job_bytes=len(raw)
        )
        pid, read_fd, workdir = child.pid, child.report_fd, child.workdir
        try:
            current, killed_by_us = self.supervise(
                pid,
                read_fd,
                job,
                first,
                budget,
                (hidden_from, hidden, child) if hidden is not None and hidden_from is not None else None,
                child if timed else None,
            )
        finally:
            if child.job_fd >= 0:
                os.close(child.job_fd)
        os.close(read_fd)
        wait_status = None
        if current is not None:  # tests[current] did not finish: say why
            if killed_by_us is None:
                wait_status = self.wait_status(pid)
                # None only when the template has died: the TypeError then ends this zygote, as its death would.
                outcome = self.outcome_of_death(wait_status, oom_before)  # type: ignore[arg-type]
                anomalies.append(f"child died: {outcome['detail']}")
            else:
                outcome = killed_by_us
            self.emit({"event": "test", "name": tests[current]["name"]} | outcome, flush=False)
            # A timeout ends the job: the judge marks the tests after it as not run.
            current = None if outcome["outcome"] == P.Outcome.TIMEOUT else current + 1
        finished = current is None or current >= len(tests)
        if wait_status is None:
            if self.reap_after_reply and finished:
                # supervise() killed it: it runs no code any more; its teardown overlaps what comes next.
                self.dying.append(pid)
            else:
                self.wait_status(pid)
        return (pid, workdir), len(tests) if finished or current is None else current

    def supervise(
        self,
        pid: int,
        read_fd: int,
        job: dict[str, Any],
        first: int,
        budget: Budget,
        sealed: tuple[int, bytes, Spare] | None = None,
        timed: Spare | None = None,
    ) -> tuple[int | None, dict[str, Any] | None]:
        """Relay the child's frames; in a timed job, each test's is followed by a ``cpu`` event of the zygote's.
        ``sealed`` (index of the first hidden test, its frame, the child): handed over after the last example.
        ``timed`` (the child of a timed job): it waits after its ``timing`` frame until the zygote has read its
        clock and said so on its job pipe, so the start is read while it waits, however late the zygote reads
        the frame (a zygote that read it after the child's last call had started its clock there: a figure
        of nearly nothing, in 2 of 80 children on a loaded machine).

        Returns (the index of the test it did not finish, or None when nothing more is to
        be reported, and the outcome of that test when it was killed by us).
        """
        tests, limits = job["tests"], job["limits"]
        time_limit_s = limits["time_limit_s"]
        reports = ReportStream(read_fd, 2 * limits["output_bytes"] + 256 * 1024, time_limit_s)
        reports.limit(budget.deadline)
        failures = {
            "too_large": {"outcome": P.Outcome.OUTPUT_LIMIT},
            "malformed": {"outcome": P.Outcome.CRASHED, "detail": "sent a malformed report"},
        }
        current, cpu_start_ns = first, None
        slow = not job.get("timed")  # a timed job's clock is CPU time, and the speed lane yields already
        while True:
            frame = reports.next(slow)
            if frame == "slow":
                slow = False  # once a job: the rest of it stays at the lower weight
                self.slow_down(pid)
                self.emit({"event": "slow", "name": tests[min(current, len(tests) - 1)]["name"]})
                continue
            if frame == "eof":
                return current, None
            if frame == "timeout":
                self.kill(pid)
                if reports.by_budget:
                    return current, {
                        "outcome": P.Outcome.TIMEOUT,
                        "detail": "submission time budget",
                        "time_ms": round(reports.elapsed_s() * 1000, 3),
                    }
                return current, {
                    "outcome": P.Outcome.TIMEOUT,
                    "detail": "test time limit",
                    "time_ms": time_limit_s * 1000,
                }
            if isinstance(frame, str):
                self.kill(pid)
                return current, failures[frame]
            body, message = frame
            event = message.get("event")
            if event == "timing" and job.get("timed") and cpu_start_ns is None and current == first:
                cpu_start_ns = cpu_clock_ns(pid)  # the child's first frame, before any student code ran
                if timed is not None and timed.job_fd >= 0:
                    try:
                        os.write(timed.job_fd, b"\0")  # it may go on now
                    except BrokenPipeError:
                        pass  # it died: the end of its report pipe says so
                    os.close(timed.job_fd)
                    timed.job_fd = -1
            elif event == "ready":
                budget.start()  # the first test starts now
                reports.extend(time_limit_s)
                reports.limit(budget.deadline)
            elif event == "test" and current < len(tests):
                # The child names the test, but the judge only believes the position.
                if message.get("name") == tests[current]["name"]:
                    self.out.write(P.HEADER.pack(len(body)))  # as checked: no second encoding, and no copy
                    self.out.write(body)
                else:
                    message["name"] = tests[current]["name"]
                    self.emit(message, flush=False)
                if job.get("timed"):
                    self.emit(cpu_event(tests[current]["name"], pid, cpu_start_ns), flush=False)
                current += 1
                if current == len(tests) or message.get("outcome") == P.Outcome.TIMEOUT:
                    self.kill(pid)
                    return None, None
                if sealed is not None and current == sealed[0]:
                    budget.start_hidden()
                    budget.start()
                    if not self.send_hidden(sealed[2], sealed[1], time_limit_s):
                        self.kill(pid)
                        return current, {
                            "outcome": P.Outcome.TIMEOUT,
                            "detail": "test time limit",
                            "time_ms": time_limit_s * 1000,
                        }
                reports.extend(time_limit_s)
                reports.limit(budget.deadline)
            elif event in P.BEFORE_TESTS:
                self.emit(message)
                self.kill(pid)
                return None, None
            else:
                self.kill(pid)
                return current, {"outcome": P.Outcome.CRASHED, "detail": "sent an unexpected report"}

    @staticmethod
    def outcome_of_death(wait_status: int, oom_kills_before: int | None = None) -> dict[str, Any]:
        if os.WIFSIGNALED(wait_status):
            sig = os.WTERMSIG(wait_status)
            if sig == signal.SIGXCPU:
                return {"outcome": P.Outcome.TIMEOUT, "detail": "CPU time limit"}
            after = oom_kills()
            if sig == signal.SIGKILL and (oom_kills_before is None or after is None or after > oom_kills_before):
                # A SIGKILL we did not send: the memory cgroup's OOM killer, when its count
                # went up (or cannot be read); otherwise the code killed itself.
                return {"outcome": P.Outcome.MEMORY, "detail": "killed by the memory limit"}
            return {"outcome": P.Outcome.CRASHED, "detail": f"killed by signal {signal.Signals(sig).name}"}
        return {"outcome": P.Outcome.CRASHED, "detail": f"exited with status {os.WEXITSTATUS(wait_status)}"}

    @staticmethod
    def slow_down(pid: int) -> None:
        """Lower a child's CPU weight where this process may (the process backend): its process group's nice,
        and its session's autogroup, inside which alone a nice value counts.  In a container the zygote may
        not (no CAP_SYS_NICE) and need not: the judge lowers the container's weight on the ``slow`` event."""
        try:
            nice = min(19, os.getpriority(os.PRIO_PROCESS, pid) + SLOW_NICE)
            os.setpriority(os.PRIO_PGRP, pid, nice)
        except OSError:
            return
        try:
            with open(f"/proc/{pid}/autogroup", "w") as group:
                group.write(str(nice))
        except OSError:
            pass

    def kill(self, pid: int) -> None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def cleanup(self, pid: int, workdir: str, anomalies: list[str]) -> None:
        """Kill what the job left and remove its directory (``cleanup.clean_up``)."""
        clean_up(self.child_uid, workdir, set(self.dying), {self.template_pid}, anomalies)


# A pipe holds 64 KiB unless asked for more, up to /proc/sys/fs/pipe-max-size (1 MiB by default) without privileges.
PIPE_SIZE, LARGEST_PIPE = 64 * 1024, 1024 * 1024


def widen_pipes(child: Spare, job_bytes: int) -> None:
    """Size a child's two pipes for a job of ``job_bytes`` (its results are usually about as large as its inputs):
    a 1 MiB job then crosses in one write and one read, not sixteen of each with a context switch between them.
    The pipes live for this job only; if the kernel refuses (the uid's pipe pages are used up), they stay as they
    were."""
    if job_bytes <= PIPE_SIZE:
        return
    for fd in (child.job_fd, child.report_fd):
        try:
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, min(job_bytes, LARGEST_PIPE))
        except OSError:
            return


STAGED = "$staged"  # an argument's place in the staged memfd, [start, end], as the zygote gives it to a child
UNSTAGED = {"~": {STAGED: None}}  # a name the zygote holds no inputs for: the child reports a malformed job


def write_staged(fd: int, value: Any, offset: int) -> tuple[Any, int]:
    """``value`` (an argument: .npy bytes or a scalar) as the child is to find it, and where the next one starts."""
    if not isinstance(value, (bytes, memoryview)):
        return value, offset
    view = memoryview(value)
    while view:
        view = view[os.write(fd, view) :]
    return {STAGED: [offset, offset + len(value)]}, offset + len(value)


def sealed_at(job: dict[str, Any]) -> int | None:
    """Where a run's hidden tests start (``hidden_from``: after at least one example, before the end), else None."""
    at = job.get("hidden_from")
    return at if type(at) is int and 0 < at < len(job["tests"]) else None


def child_request(job: dict[str, Any], raw: bytes, first: int, hidden_from: int | None) -> tuple[bytes, bytes | None]:
    """What a child running tests[first:] is given: the request as it came (to start at ``first``); in a job
    with hidden tests, a request of its own holding only the examples still to run, and the hidden tests'
    frame to send once they are reported (None when it starts among the hidden ones)."""
    if hidden_from is None:
        return raw, None
    tests = job["tests"]
    if first >= hidden_from:
        return P.encode_body(job | {"tests": tests[first:]}), None
    examples = job | {"tests": tests[first:hidden_from], "more_tests": len(tests) - hidden_from}
    return P.encode_body(examples), P.encode_frame({"tests": tests[hidden_from:]})


def cpu_clock_ns(pid: int) -> int | None:
    """The CPU time ``pid`` has used (every thread, user and system), read from outside it: the child
    can neither see nor change this clock.  None when the process is gone."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | CPUCLOCK_SCHED)  # the kernel's clock id of a process
    except OSError:
        return None


CPUCLOCK_SCHED = 2


def cpu_event(name: str, pid: int, start_ns: int | None) -> dict[str, Any]:
    """What a timed test cost the child in CPU time, from its ``timing`` frame (sent before any of the
    student's code ran, so work done at import time counts) to the moment its result was read."""
    now = cpu_clock_ns(pid)
    if now is None or start_ns is None:
        return {"event": "cpu", "name": name, "cpu_ms": None}
    return {"event": "cpu", "name": name, "cpu_ms": round((now - start_ns) / 1e6, 4)}


def oom_kills() -> int | None:
    """How many processes the memory cgroup's OOM killer has killed (cgroup v1 or v2)."""
    for path in ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events"):
        try:
            with open(path) as counters:
                for line in counters:
                    if line.startswith("oom_kill "):
                        return int(line.split()[1])
        except (OSError, ValueError):
            continue
    return None
