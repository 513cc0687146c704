"""The zygote: imports NumPy once, then forks one hardened child per job.

It runs inside the sandbox (a Docker container, or a plain subprocess for the
process backend) and talks to the judge over its own stdin/stdout using the
frames of ``sandbox.protocol``.  It never sees expected outputs, reference
solutions or checker code: it receives the student's code and the test inputs,
and reports what the student's function returned, as ``.npy`` bytes.

Each job runs in a fresh child that is its own session and process group, runs
under a uid different from the zygote's, is not dumpable, has rlimits, and
keeps only the one pipe it reports on.  The zygote enforces a wall-clock limit
per test and kills the child's whole group (and every process of the child's
uid) when it expires.  If a child dies mid-job, the zygote reports that test
and forks a fresh child for the remaining ones.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import hashlib
import io
import math
import os
import random
import re
import resource
import select
import shutil
import signal
import struct
import socket
import sys
import tempfile
import time
import traceback

import numpy as np

# Imported here, before any isolation, so that student code finds them even
# when the file system behind them has been masked.
import numpy.fft  # noqa: F401
import numpy.linalg  # noqa: F401
import numpy.random  # noqa: F401
import collections, dataclasses, functools, itertools, operator, typing  # noqa: E401,F401

from sandbox import protocol as P

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV = 1, 2, 4
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
STDOUT_CAPTURE_CHARS = 4000
ERROR_MESSAGE_CHARS = 2000

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def prctl(option: int, value: int) -> None:
    _check(_libc.prctl(option, value, 0, 0, 0), "prctl")


# --------------------------------------------------------------------------
# Isolation of the zygote itself (process backend, running as root)
# --------------------------------------------------------------------------


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    _check(
        _libc.mount(
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
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWNET), "unshare")
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


# --------------------------------------------------------------------------
# The child: runs the student's code and reports on one pipe
# --------------------------------------------------------------------------


def harden_child(report_fd: int, workdir: str, limits: dict, child_uid: int | None, cpu_s: int) -> None:
    isolate_child([report_fd], workdir)
    clean_environment(workdir)
    drop_privileges(child_uid)
    limit_child(limits, cpu_s)


def isolate_child(keep_fds: list[int], workdir: str) -> None:
    """Own session and process group, only ``keep_fds`` open, in its own directory."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    keep = sorted({0, 1, 2, *keep_fds})
    for low, high in zip(keep, keep[1:] + [65536]):
        os.closerange(low + 1, high)
    os.chdir(workdir)


def clean_environment(workdir: str) -> None:
    """Nothing of the zygote's environment, and no way to gain privileges by exec."""
    os.environ.clear()
    os.environ.update({"HOME": workdir, "TMPDIR": workdir, "PATH": "/usr/bin:/bin"})
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def drop_privileges(child_uid: int | None) -> None:
    """The child's own uid, and then not dumpable (a uid change resets both flags below)."""
    if child_uid is not None:
        os.setgroups([])
        os.setresgid(child_uid, child_uid, child_uid)
        os.setresuid(child_uid, child_uid, child_uid)
    prctl(PR_SET_DUMPABLE, 0)
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def limit_child(limits: dict, cpu_s: int) -> None:
    """The job's rlimits; only ever lowered, so this works after the uid change too."""
    address_space = _current_vm_bytes() + limits["memory_mb"] * 1024 * 1024
    for name, value in (
        (resource.RLIMIT_AS, address_space),
        (resource.RLIMIT_CPU, cpu_s),
        (resource.RLIMIT_FSIZE, 1024 * 1024),
        (resource.RLIMIT_NOFILE, 64),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 16),
    ):
        hard = value + 1 if name == resource.RLIMIT_CPU else value
        resource.setrlimit(name, (value, hard))


def _run_cpu_s(job: dict, first: int) -> int:
    """The CPU rlimit of a child running tests[first:]: loading plus every test, or the budget."""
    limits = job["limits"]
    per_test = limits["time_limit_s"] * (len(job["tests"]) - first + 1)
    if limits.get("budget_s") is not None:
        per_test = min(per_test, limits["budget_s"] + limits["time_limit_s"])
    return math.ceil(per_test) + 1


def _rehearse(job_fd: int) -> None:
    """Run a trusted job of one tiny test, into /dev/null, before the real job arrives.

    After a fork every page the child writes to is copied on first touch, and here a
    page fault costs several microseconds: a job touches a few hundred pages.  The
    rehearsal walks the same path (decoding, compiling, loading, calling, encoding,
    hashing), so the real job finds those pages already copied.  It starts once the
    spare has idled for ``REHEARSAL_DELAY_S``, and between its steps (none takes a
    millisecond) it stops as soon as the job is waiting.
    """
    if select.select([job_fd], [], [], REHEARSAL_DELAY_S)[0]:
        return
    x, y = _npy(np.zeros((2, 1, 3))), _npy(np.ones((2, 2, 3)))
    frame = P.encode_frame({
        "code": REHEARSAL_CODE, "function": "rehearse", "params": ["x", "y"],
        "tests": [{"name": "rehearsal", "args": {"x": x, "y": y}}],
        "limits": {"time_limit_s": 1.0, "memory_mb": 64, "output_bytes": 1 << 20},
    })
    job: dict = {}
    namespace: dict = {"__name__": "submission", "__builtins__": __builtins__}
    steps = (
        lambda: job.update(P.read_frame(io.BufferedReader(io.BytesIO(frame)))),
        lambda: [resource.setrlimit(name, resource.getrlimit(name)) for name in REHEARSED_LIMITS],
        _current_vm_bytes,
        lambda: namespace.update(code=compile(job["code"], P.STUDENT_FILENAME, "exec", dont_inherit=True)),
        lambda: exec(namespace["code"], namespace),
        lambda: namespace.update(event=run_test(namespace[job["function"]], job, job["tests"][0], [])),
        lambda: P.encode_frame(namespace["event"]),
    )
    try:
        for step in steps:
            if select.select([job_fd], [], [], 0)[0]:
                return
            step()
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__


REHEARSAL_DELAY_S = 0.002
REHEARSAL_CODE = "import numpy as np\n\ndef rehearse(x, y):\n    return np.concatenate([x, y * 1.0], axis=1)\n"
REHEARSED_LIMITS = (resource.RLIMIT_CPU, resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE, resource.RLIMIT_CORE)


def _current_vm_bytes() -> int:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 512 * 1024 * 1024


class _CappedText(io.TextIOBase):
    """Stands in for sys.stdout: keeps the first few thousand characters."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        if self.size < STDOUT_CAPTURE_CHARS:
            self.parts.append(text[: STDOUT_CAPTURE_CHARS - self.size])
            self.size += len(self.parts[-1])
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


def _error_event(exc: BaseException, code_lines: list[str]) -> dict:
    frames = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == P.STUDENT_FILENAME and frame.lineno:
            text = code_lines[frame.lineno - 1].strip() if frame.lineno <= len(code_lines) else ""
            frames.append({"line": frame.lineno, "function": frame.name, "text": text[:200]})
    try:
        message = str(exc)
    except BaseException:  # a hostile __str__
        message = "<unprintable>"
    return {"type": type(exc).__name__[:100], "message": message[:ERROR_MESSAGE_CHARS], "frames": frames[-20:]}


def _describe(value: object) -> str:
    kind = type(value)
    if isinstance(value, np.ndarray):
        return f"{kind.__module__}.{kind.__qualname__} (a subclass of numpy.ndarray)"[:200]
    if value is None:
        return "None"
    return f"{kind.__module__}.{kind.__qualname__}".removeprefix("builtins.")[:200]


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


class MalformedArgument(Exception):
    """The job gave an argument that is neither ``.npy`` bytes nor a plain int, float or bool."""


SCALAR_TYPES = (int, float, bool)


def _load_args(test: dict) -> dict:
    """Arrays from ``.npy`` bytes; scalars (JSON numbers and booleans) as the plain Python value."""
    args = {}
    for name, value in test["args"].items():
        if isinstance(value, bytes):
            args[name] = _load_npy(value)
        elif type(value) in SCALAR_TYPES:
            args[name] = value
        else:
            raise MalformedArgument(f"argument {str(name)[:100]!r} is neither .npy bytes nor an int, float or bool")
    return args


# The header np.save writes for a plain numeric array (the judge saves every input so).
NPY_HEADER = re.compile(rb"\{'descr': '([<>|=][a-z]\d+)', 'fortran_order': (True|False), 'shape': \(([\d, ]*)\), \} *\n")


def _load_npy(data: bytes) -> np.ndarray:
    """An input array, read without np.load's general header parser when np.save wrote it.

    np.load parses the header with ast.literal_eval, a tenth of a millisecond per
    argument here; the inputs come from the judge, so this only has to be right
    for what np.save writes, and anything else goes to np.load.
    """
    if data[:8] == b"\x93NUMPY\x01\x00":
        end = 10 + int.from_bytes(data[8:10], "little")
        header = NPY_HEADER.fullmatch(data, 10, end)
        if header is not None:
            shape = _npy_shape(header[3])
            try:
                flat = np.frombuffer(data, dtype=np.dtype(header[1].decode()), offset=end)
                return flat.reshape(shape, order="F" if header[2] == b"True" else "C").copy(order="K")
            except (TypeError, ValueError):
                pass
    return np.load(io.BytesIO(data), allow_pickle=False)


def _npy_shape(text: bytes) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split(b",") if n.strip())


def _call(function, params: list[str], args: dict):
    positional = []
    for name in params:
        if name not in args:
            break
        positional.append(args[name])
    keywords = {name: value for name, value in args.items() if name not in params[: len(positional)]}
    return function(*positional, **keywords)


def child_main(job: dict, first: int, report) -> None:
    code = job["code"]
    lines = code.splitlines()
    try:
        compiled = compile(code, P.STUDENT_FILENAME, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        P.write_frame(report, {
            "event": "compile_error",
            "message": f"{type(exc).__name__}: {getattr(exc, 'msg', str(exc))}"[:ERROR_MESSAGE_CHARS],
            "line": line,
            "text": (lines[line - 1] if line and line <= len(lines) else "")[:200],
        })
        return
    namespace: dict = {"__name__": "submission", "__builtins__": __builtins__}
    sys.stdout = sys.stderr = _CappedText()
    try:
        exec(compiled, namespace)
    except BaseException as exc:
        P.write_frame(report, {"event": "load_error", "error": _error_event(exc, lines)})
        return
    function = namespace.get(job["function"])
    if not callable(function):
        found = sorted(k for k, v in namespace.items() if callable(v) and not k.startswith("_"))
        P.write_frame(report, {"event": "missing_function", "found": ", ".join(found)[:200] or None})
        return
    P.write_frame(report, {"event": "ready"})
    for test in job["tests"][first:]:
        P.write_frame(report, run_test(function, job, test, lines))


def run_test(function, job: dict, test: dict, lines: list[str]) -> dict:
    event = {"event": "test", "name": test["name"]}
    try:
        args = _load_args(test)
    except MalformedArgument as exc:
        return event | {"outcome": P.Outcome.CRASHED, "detail": f"malformed job: {exc}"[:200], "time_ms": 0.0}
    captured = sys.stdout = sys.stderr = _CappedText()
    started = time.perf_counter()
    try:
        result = _call(function, job["params"], args)
    except MemoryError:
        return event | {"outcome": P.Outcome.MEMORY, "time_ms": _ms(started)}
    except BaseException as exc:
        return event | {"outcome": P.Outcome.ERROR, "error": _error_event(exc, lines),
                        "time_ms": _ms(started), "stdout": captured.getvalue()}
    event |= {"time_ms": _ms(started), "stdout": captured.getvalue()}
    if type(result) is not np.ndarray:
        return event | {"outcome": P.Outcome.WRONG_TYPE, "type": _describe(result)}
    event |= {"outcome": P.Outcome.RETURNED, "dtype": result.dtype.str[:40], "shape": list(result.shape)[:64]}
    if result.nbytes > job["limits"]["output_bytes"]:
        return event | {"outcome": P.Outcome.OUTPUT_LIMIT}
    if not result.dtype.hasobject:
        event["output"] = _npy(result)
    event["input_hashes"] = {name: hashlib.sha256(_npy(value)).hexdigest() for name, value in args.items()
                             if type(value) is np.ndarray}
    return event


def generate_main(job: dict, report) -> None:
    """Run an author's generator (``tests.py``) and report each case as .npy frames.

    Author code is untrusted too: it runs in the same hardened child as a
    submission, and the judge re-validates every case it reports.
    """
    code = job["code"]
    lines = code.splitlines()
    try:
        compiled = compile(code, P.STUDENT_FILENAME, "exec", dont_inherit=True)
        namespace: dict = {"__name__": "generator", "__builtins__": __builtins__}
        sys.stdout = sys.stderr = _CappedText()
        exec(compiled, namespace)
        generate = namespace.get("generate")
        if not callable(generate):
            raise InvalidCase("tests.py must define generate(rng)")
        for index, raw in enumerate(generate(np.random.default_rng(job["seed"]))):
            if index >= job["max_cases"]:
                raise InvalidCase(f"generate() yielded more than {job['max_cases']} cases")
            P.write_frame(report, _case_frame(index, raw, job))
    except BaseException as exc:
        P.write_frame(report, {"event": "generate_error", "error": _error_event(exc, lines)})
        return
    P.write_frame(report, {"event": "generated"})


class InvalidCase(Exception):
    pass


def _case_frame(index: int, raw: object, job: dict) -> dict:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not isinstance(raw.get("args"), dict):
        raise InvalidCase(f"case {index} must be a dict with a string 'name' and a dict 'args'")
    where = f"case {index} ({raw['name'][:100]})"
    args = {}
    for name, value in raw["args"].items():
        if name not in job["params"]:
            raise InvalidCase(f"{where}: unknown argument {str(name)[:100]!r}")
        scalar = _plain_scalar(value)
        if scalar is not None:
            args[name] = scalar
            continue
        if type(value) is not np.ndarray or value.dtype.hasobject:
            raise InvalidCase(f"{where}: argument {name!r} must be a numeric ndarray, got {_describe(value)} "
                              "(a scalar argument must be an int, float or bool)")
        if value.nbytes > job["limits"]["output_bytes"]:
            raise InvalidCase(f"{where}: argument {name!r} is larger than {job['limits']['output_bytes']} bytes")
        args[name] = _npy(np.ascontiguousarray(value))
    frame = {"event": "case", "name": raw["name"][:100], "hidden": bool(raw.get("hidden", True)), "args": args}
    if "shape" in raw:
        frame["shape"] = [int(n) for n in raw["shape"]]
    if "probe" in raw:
        if not isinstance(raw["probe"], (bool, np.bool_)):
            raise InvalidCase(f"{where}: 'probe' must be True or False, got {_describe(raw['probe'])}")
        frame["probe"] = bool(raw["probe"])
    return frame


def _plain_scalar(value: object) -> int | float | bool | None:
    """``value`` as a plain bool, int or float if it is one (NumPy's scalars included), else None."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    return None


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


# --------------------------------------------------------------------------
# The template: the process the children are forked from
# --------------------------------------------------------------------------

def fork_spare(scratch: str, child_uid: int | None) -> Spare:
    """Fork, isolate and warm a child now; it reads ``first`` + the raw run request later.

    Only trusted code runs in it until the job arrives, and it keeps the zygote's
    uid, and its directory stays root's, until then: it is forked while the previous
    job's processes may still live, and they can neither signal nor trace a process
    of another uid, nor enter its directory, nor kill it when their uid's processes
    are killed.
    """
    workdir = tempfile.mkdtemp(dir=scratch)  # 0700, root's until the job arrives
    job_read, job_write = os.pipe()
    report_read, report_write = os.pipe()
    # Objects that exist now are never collected in the child: its collections then
    # leave their pages shared instead of copying them (each copy is a page fault).
    gc.freeze()
    try:
        pid = os.fork()
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
            isolate_child([job_read, report_write], workdir)
            clean_environment(workdir)
            _rehearse(job_read)
            with os.fdopen(job_read, "rb") as requests:
                first = P.HEADER.unpack(P.read_exact(requests, P.HEADER.size))[0]
                job = P.read_frame(requests)
            if child_uid is not None:
                os.chown(workdir, child_uid, child_uid)
            drop_privileges(child_uid)
            limit_child(job["limits"], _run_cpu_s(job, first))
            with os.fdopen(report_write, "wb") as report:
                child_main(job, first, report)
        except BaseException:
            status = 70
        finally:
            os._exit(status)
    os.close(job_read)
    os.close(report_write)
    return Spare(pid, job_write, report_read, workdir)


SPARE, EXITED, FAILED, FORK = b"S", b"X", b"F", b"f"
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
    keep = sorted({0, 1, 2, control.fileno()})
    for low, high in zip(keep, keep[1:] + [65536]):
        os.closerange(low + 1, high)
    wakeup_read, wakeup_write = os.pipe()
    os.set_blocking(wakeup_write, False)
    signal.set_wakeup_fd(wakeup_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    while True:
        ready = select.select([control, wakeup_read], [], [])[0]
        if wakeup_read in ready:
            os.read(wakeup_read, 4096)
            _report_exits(control)
        if control in ready:
            if not control.recv(16):
                return  # the zygote is gone
            try:
                spare = fork_spare(scratch, child_uid)
            except OSError:
                control.send(FAILED)
                continue
            fds = [spare.job_fd, spare.report_fd]
            socket.send_fds(control, [SPARE + PID_STATUS.pack(spare.pid, 0) + spare.workdir.encode()], fds)
            for fd in fds:
                os.close(fd)


def _report_exits(control: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        control.send(EXITED + PID_STATUS.pack(pid, status))


# --------------------------------------------------------------------------
# The zygote: one job at a time, each in a child the template forked
# --------------------------------------------------------------------------


class Spare:
    """A child forked and hardened ahead of time, waiting for its job on a pipe."""

    def __init__(self, pid: int, job_fd: int, report_fd: int, workdir: str) -> None:
        self.pid, self.job_fd, self.report_fd, self.workdir = pid, job_fd, report_fd, workdir


class Budget:
    """The wall time a job's tests may take together, counted from the first test's start."""

    def __init__(self, budget_s: float | None) -> None:
        self.budget_s = budget_s
        self.deadline: float | None = None

    def start(self) -> None:
        if self.deadline is None and self.budget_s is not None:
            self.deadline = time.monotonic() + self.budget_s


class ReportStream:
    """Frames from a child's report pipe, read against a deadline the caller can move."""

    def __init__(self, read_fd: int, max_frame: int, timeout_s: float) -> None:
        self.read_fd, self.max_frame = read_fd, max_frame
        self.buffer = bytearray()
        self.extend(timeout_s)

    def extend(self, timeout_s: float) -> None:
        """A new wait of ``timeout_s`` (one test's limit) from now."""
        self.started = time.monotonic()
        self.deadline = self.started + timeout_s
        self.by_budget = False

    def limit(self, deadline: float | None) -> None:
        """End the wait at ``deadline`` (the job's budget) if that comes first."""
        if deadline is not None and deadline < self.deadline:
            self.deadline, self.by_budget = deadline, True

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    def next(self) -> tuple[bytes, dict] | str:
        """The next (body, message), or why there is none: timeout, eof, too_large or malformed."""
        while True:
            if len(self.buffer) >= P.HEADER.size:
                (size,) = P.HEADER.unpack_from(self.buffer)
                if size > self.max_frame:
                    return "too_large"
                if len(self.buffer) >= P.HEADER.size + size:
                    body = bytes(self.buffer[P.HEADER.size : P.HEADER.size + size])
                    del self.buffer[: P.HEADER.size + size]
                    try:
                        return body, P.decode_body(body)
                    except P.ProtocolError:
                        return "malformed"
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            if not select.select([self.read_fd], [], [], remaining)[0]:
                continue
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                return "eof"
            self.buffer += chunk


class Zygote:
    def __init__(self, out, scratch: str, child_uid: int | None) -> None:
        self.out = out
        self.scratch = scratch
        self.child_uid = child_uid
        self.spare: Spare | None = None
        self.spare_requested = False
        self.reap_after_reply = False
        self.dying: list[int] = []  # killed children whose exit has not been waited for
        self.statuses: dict[int, int] = {}  # exit statuses the template reported
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

    def start_child(self, raw_job: bytes, first: int) -> Spare:
        """The spare (or a fresh child), given its job."""
        child = self.take_spare()
        message = P.HEADER.pack(first) + P.HEADER.pack(len(raw_job)) + raw_job
        try:
            view = memoryview(message)
            while view:
                view = view[os.write(child.job_fd, view) :]
        except BrokenPipeError:
            pass  # it died waiting: supervise() sees end-of-file and reports a crash
        os.close(child.job_fd)
        return child

    def emit(self, message: dict, flush: bool = True) -> None:
        """Send a frame; results wait in the buffer for ``done`` (one wake-up of the judge, not one per test)."""
        self.out.write(P.encode_frame(message))
        if flush:
            self.out.flush()

    def run(self, job: dict, raw: bytes) -> None:
        """Run ``job``; ``raw`` is its frame's body, handed to the child as it came.

        It stops at the first test that ends in a timeout: no later test runs or is reported.
        """
        anomalies: list[str] = []
        index, child = 0, None
        budget = Budget(job["limits"].get("budget_s"))
        while index < len(job["tests"]):
            if child is not None:
                self.cleanup(*child, anomalies)  # the next child runs under the same uid
            child, index = self.run_child(job, raw, index, anomalies, budget)
        self.finish(anomalies, child)

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
        self.emit({"event": "clean", "anomaly": "; ".join(leftovers) or None})

    def generate(self, job: dict) -> None:
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
            self.emit({"event": "generate_error", "error": {"type": "GeneratorFailed", "message": failure,
                                                            "frames": []}})
        self.finish(anomalies, (pid, workdir))

    def relay_generation(self, pid: int, read_fd: int, job: dict) -> str | None:
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

    def run_child(self, job: dict, raw: bytes, first: int, anomalies: list[str],
                  budget: Budget) -> tuple[tuple[int, str], int]:
        """Give tests[first:] to a hardened child.

        Returns the child's (pid, directory), still to be cleaned up, and the index
        of the next test to run (the number of tests when the job is over).
        """
        tests = job["tests"]
        oom_kills = _oom_kills()
        child = self.start_child(raw, first)
        pid, read_fd, workdir = child.pid, child.report_fd, child.workdir
        current, killed_by_us = self.supervise(pid, read_fd, job, first, budget)
        os.close(read_fd)
        wait_status = None
        if current is not None:  # tests[current] did not finish: say why
            if killed_by_us is None:
                wait_status = self.wait_status(pid)
                outcome = self.outcome_of_death(wait_status, oom_kills)
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
        return (pid, workdir), len(tests) if finished else current

    def supervise(self, pid: int, read_fd: int, job: dict, first: int, budget: Budget):
        """Relay the child's frames.

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
        current = first
        while True:
            frame = reports.next()
            if frame == "eof":
                return current, None
            if frame == "timeout":
                self.kill(pid)
                if reports.by_budget:
                    return current, {"outcome": P.Outcome.TIMEOUT, "detail": "submission time budget",
                                     "time_ms": round(reports.elapsed_s() * 1000, 3)}
                return current, {"outcome": P.Outcome.TIMEOUT, "detail": "test time limit",
                                 "time_ms": time_limit_s * 1000}
            if isinstance(frame, str):
                self.kill(pid)
                return current, failures[frame]
            body, message = frame
            event = message.get("event")
            if event == "ready":
                budget.start()  # the first test starts now
                reports.extend(time_limit_s)
                reports.limit(budget.deadline)
            elif event == "test" and current < len(tests):
                # The child names the test, but the judge only believes the position.
                if message.get("name") == tests[current]["name"]:
                    self.out.write(P.HEADER.pack(len(body)) + body)  # as checked: no second encoding
                else:
                    message["name"] = tests[current]["name"]
                    self.emit(message, flush=False)
                current += 1
                if current == len(tests) or message.get("outcome") == P.Outcome.TIMEOUT:
                    self.kill(pid)
                    return None, None
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
    def outcome_of_death(wait_status: int, oom_kills_before: int | None = None) -> dict:
        if os.WIFSIGNALED(wait_status):
            sig = os.WTERMSIG(wait_status)
            if sig == signal.SIGXCPU:
                return {"outcome": P.Outcome.TIMEOUT, "detail": "CPU time limit"}
            after = _oom_kills()
            if sig == signal.SIGKILL and (oom_kills_before is None or after is None or after > oom_kills_before):
                # A SIGKILL we did not send: the memory cgroup's OOM killer, when its count
                # went up (or cannot be read); otherwise the code killed itself.
                return {"outcome": P.Outcome.MEMORY, "detail": "killed by the memory limit"}
            return {"outcome": P.Outcome.CRASHED, "detail": f"killed by signal {signal.Signals(sig).name}"}
        return {"outcome": P.Outcome.CRASHED, "detail": f"exited with status {os.WEXITSTATUS(wait_status)}"}

    def kill(self, pid: int) -> None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def reap_orphans(self) -> None:
        """Reap the killed descendants this zygote adopted as their subreaper.

        Left to an init that never reaps, they would stay zombies of the student's
        uid and count against its process limit in every later job.
        """
        known = {self.template_pid}
        try:
            with open(f"/proc/self/task/{os.getpid()}/children") as children:
                adopted = [int(pid) for pid in children.read().split()]
        except OSError:
            return
        for pid in adopted:
            if pid not in known:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass

    def cleanup(self, pid: int, workdir: str, anomalies: list[str]) -> None:
        """Kill every process the child's uid still has, and remove its directory.

        Children killed by us but not yet reaped (``self.dying``) are no strays.
        """
        if self.child_uid is not None and self.kill_uid(self.child_uid, set(self.dying)):
            anomalies.append("a process outlived the job")
        self.reap_orphans()
        if self.child_uid is not None and self.remove_ipc_of(self.child_uid):
            anomalies.append("the job left System V IPC objects")
        if os.listdir(workdir):
            anomalies.append("the job left files in its scratch directory")
        shutil.rmtree(workdir, ignore_errors=True)

    @staticmethod
    def kill_uid(uid: int, dying: set[int] = frozenset()) -> bool:
        """Kill every process of ``uid`` (the student's) but ``dying``; True if a live one was there.

        A scan of /proc can miss a process forked while it runs: it lists the pids,
        then the parent forks and exits, and the parent is a zombie by the time its
        status is read.  So a zombie of the uid is reason enough to kill(-1) as the
        uid, which the kernel applies to every process at once.
        """
        live, dead = _scan_uid(uid, exclude=dying)
        if not live and not dead:
            return False
        pid = os.fork()
        if pid == 0:
            found = 0
            try:
                # As that uid, kill(-1) reaches exactly that uid's processes.
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                found = int(bool(_processes_of(uid, exclude=dying | {os.getpid()})))
                for _ in range(50):
                    os.kill(-1, signal.SIGKILL)
                    if not _processes_of(uid, exclude=dying | {os.getpid()}):
                        break
                    time.sleep(0.01)
            finally:
                os._exit(found)
        _, status = os.waitpid(pid, 0)
        return bool(live) or os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1


    @staticmethod
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
                        _libc.shmctl(ipc_id, 0, None)
                    elif kind == "msg":
                        _libc.msgctl(ipc_id, 0, None)
                    else:
                        _libc.semctl(ipc_id, 0, 0)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        return True


IPC_ID_COLUMN = {"shm": "shmid", "msg": "msqid", "sem": "semid"}


def _ipc_of(uid: int) -> list[tuple[str, int]]:
    """(kind, id) of the System V IPC objects owned or created by ``uid``, from /proc/sysvipc."""
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as table:
                header, *rows = [line.split() for line in table]
        except (OSError, ValueError):
            continue
        columns = {name: index for index, name in enumerate(header)}
        for row in rows:
            try:
                if uid in (int(row[columns["uid"]]), int(row[columns["cuid"]])):
                    found.append((kind, int(row[columns[IPC_ID_COLUMN[kind]]])))
            except (KeyError, IndexError, ValueError):
                continue
    return found


def _unused_uid() -> int:
    """A uid no process has: pids are reused, so a uid derived from one could meet old strays."""
    rng = random.SystemRandom()
    while True:
        uid = rng.randrange(200_000, 2_000_000_000)
        if not _processes_of(uid):
            return uid


def _oom_kills() -> int | None:
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


def _processes_of(uid: int, exclude: set[int] = frozenset()) -> list[int]:
    """Live (not zombie) processes whose real uid is ``uid``, but those in ``exclude``."""
    return _scan_uid(uid, exclude)[0]


def _scan_uid(uid: int, exclude: set[int] = frozenset()) -> tuple[list[int], list[int]]:
    """(live processes, zombies) whose real uid is ``uid``, but those in ``exclude``: one pass of /proc."""
    live, dead = [], []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status if line.startswith(("State:", "Uid:")))
        except (OSError, ValueError):
            continue
        if int(fields.get("Uid", "-1 0").split()[0]) == uid:
            (dead if fields.get("State", "").strip().startswith(("Z", "X")) else live).append(int(entry))
    return live, dead


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child-uid", default=None,
                        help="run children under this uid ('auto': a random unused uid above 200000)")
    parser.add_argument("--isolate", action="store_true", help="new network and mount namespace")
    parser.add_argument("--mask", action="append", default=[], help="hide this directory")
    parser.add_argument("--keep", action="append", default=[], help="but keep this one read-only")
    parser.add_argument("--scratch", default=None, help="where children get their directories")
    parser.add_argument("--connect", default=None, metavar="PATH",
                        help="speak the protocol on this Unix socket instead of stdin/stdout")
    parser.add_argument("--reap-after-reply", action="store_true",
                        help="wait for a finished job's killed child after sending `done` (the Docker backend)")
    options = parser.parse_args(argv)

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
        child_uid = _unused_uid()
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
        request = P.decode_body(raw)
        op = request.get("op")
        if op == "ping":
            zygote.emit({"event": "pong", "numpy": np.__version__, "python": sys.version.split()[0],
                         "uid": os.getuid(), "pid": os.getpid(), "child_uid": zygote.child_uid})
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


if __name__ == "__main__":
    main()
