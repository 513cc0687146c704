"""The child: compiles the submitted code, calls the function on each test, reports on one pipe.

Everything here runs in a hardened child (``hardening``), forked by the template
(``template``); the zygote (``supervisor``) relays what it reports.  An author's
generator runs here too (``generate_main``).
"""

from __future__ import annotations

import builtins
import hashlib
import io
import re
import resource
import select
import sys
import time
import traceback
import types
from collections.abc import Callable
from typing import Any, BinaryIO

import numpy as np
from numpy.typing import NDArray

# Imported here, before any isolation, so that student code finds them even
# when the file system behind them has been masked.  Kept apart from the sorted imports above.
# isort: off
import numpy.fft
import numpy.linalg
import numpy.random
import collections, dataclasses, functools, itertools, operator, typing  # noqa: E401, F401
# isort: on

from sandbox import protocol as P
from sandbox.zygote.hardening import current_vm_bytes

STDOUT_CAPTURE_CHARS = 4000
ERROR_MESSAGE_CHARS = 2000


def child_main(
    job: dict[str, Any], first: int, report: BinaryIO, hidden: BinaryIO | None = None, staged: memoryview | None = None
) -> None:
    """Run ``job``'s tests[first:]; then, with ``hidden`` (the job pipe of a job with ``more_tests``), the
    hidden tests, which the zygote writes there only once it has read every result above; in a timed job the
    job pipe is where the zygote says it has read the CPU clock's start.  ``staged``: the read-only mapping a
    ``"staged"`` timed job's arguments point into (``template.take_staged``)."""
    if staged is not None:
        for test in job["tests"]:
            test["args"] = {name: _staged(value, staged) for name, value in test["args"].items()}
    code = job["code"]
    lines = code.splitlines()
    sys.stdout = sys.stderr = CappedText()
    if job.get("timed"):
        # Before any code of the student's runs (their solved modules included): the zygote starts this
        # child's CPU clock here, so decoding the job is not counted, and work done at import time is.
        P.write_frame(report, {"event": "timing"})
        if hidden is not None:
            hidden.read(1)  # until the zygote has read the clock: waiting, this process's clock stands still
            hidden.close()
            hidden = None
    failure = load_solved(job.get("modules") or {})
    if failure is not None:
        P.write_frame(report, {"event": "load_error", "error": failure})
        return
    try:
        compiled = compile(code, P.STUDENT_FILENAME, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        P.write_frame(
            report,
            {
                "event": "compile_error",
                "message": f"{type(exc).__name__}: {getattr(exc, 'msg', str(exc))}"[:ERROR_MESSAGE_CHARS],
                "line": line,
                "text": (lines[line - 1] if line and line <= len(lines) else "")[:200],
            },
        )
        return
    namespace: dict[str, Any] = {"__name__": "submission", "__builtins__": builtins}
    try:
        exec(compiled, namespace)
    except BaseException as exc:
        P.write_frame(report, {"event": "load_error", "error": error_event(exc, lines)})
        return
    function = namespace.get(job["function"])
    if not callable(function):
        found = sorted(k for k, v in namespace.items() if callable(v) and not k.startswith("_"))
        P.write_frame(report, {"event": "missing_function", "found": ", ".join(found)[:200] or None})
        return
    P.write_frame(report, {"event": "ready"})
    for test in job["tests"][first:]:
        P.write_frame(report, run_test(function, job, test, lines))
    if hidden is not None:
        later = P.read_frame(hidden, copy=False)
        hidden.close()
        for test in later["tests"]:
            P.write_frame(report, run_test(function, job, test, lines))
    if job.get("timed"):
        # Alive until the zygote has read this process's CPU clock (it kills it then): the clock of a
        # process that has exited cannot be read.
        time.sleep(job["limits"]["time_limit_s"] + 1.0)


SOLVED = "solved"  # the module the submission imports earlier problems' solutions from
MODULE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,79}$")
# slug -> the lines of its code, for tracebacks through it (filled by load_solved, once per job).
SOLVED_LINES: dict[str, list[str]] = {}


def load_solved(modules: object) -> dict[str, Any] | None:
    """Compile and run each earlier problem's code, in order, and register ``solved`` in sys.modules.

    ``solved.<slug>`` is the function ``<slug>`` that code defines; a module may import the
    ones before it.  They run in this hardened child, before the submission, under its limits.
    None, or the error (an ERROR with ``module``, the slug) that stops the job as a load_error.
    """
    if not modules:
        return None
    if not isinstance(modules, dict) or not all(
        isinstance(k, str) and MODULE_NAME.match(k) and isinstance(v, str) for k, v in modules.items()
    ):
        return {"type": "MalformedJob", "message": "modules must map problem slugs to code", "frames": []}
    solved = types.ModuleType(SOLVED, "Your accepted solutions of the problems this one builds on.")
    sys.modules[SOLVED] = solved
    for slug, code in modules.items():
        SOLVED_LINES[slug] = code.splitlines()
        namespace: dict[str, Any] = {"__name__": f"{SOLVED}.{slug}", "__builtins__": builtins}
        try:
            exec(compile(code, solved_filename(slug), "exec", dont_inherit=True), namespace)
        except BaseException as exc:
            return error_event(exc, []) | {"module": slug}
        function = namespace.get(slug)
        if not callable(function):
            return {
                "type": "ImportError",
                "message": f"it defines no function named {slug}",
                "frames": [],
                "module": slug,
            }
        setattr(solved, slug, function)
    return None


def solved_filename(slug: str) -> str:
    return f"<{SOLVED}:{slug}>"


def run_test(
    function: Callable[..., Any], job: dict[str, Any], test: dict[str, Any], lines: list[str]
) -> dict[str, Any]:
    event = {"event": "test", "name": test["name"]}
    try:
        args = _load_args(test)
    except MalformedArgument as exc:
        return event | {"outcome": P.Outcome.CRASHED, "detail": f"malformed job: {exc}"[:200], "time_ms": 0.0}
    arrays = _input_arrays(args, test["args"])  # the caller's arrays, kept before the call: hashed after it
    captured = sys.stdout = sys.stderr = CappedText()
    started = time.perf_counter()
    try:
        result = _call(function, job["params"], args)
    except MemoryError:
        return event | {"outcome": P.Outcome.MEMORY, "time_ms": _ms(started)}
    except BaseException as exc:
        return event | {
            "outcome": P.Outcome.ERROR,
            "error": error_event(exc, lines),
            "time_ms": _ms(started),
            "stdout": captured.getvalue(),
        }
    event |= {"time_ms": _ms(started), "stdout": captured.getvalue()}
    if job.get("returns") in STRUCTURED and type(result) in (tuple, dict):
        event |= _structured(result, job["limits"]["output_bytes"], job.get("digest") is True)
        if event["outcome"] == P.Outcome.OUTPUT_LIMIT:
            return event
    elif type(result) is not np.ndarray:
        return event | {"outcome": P.Outcome.WRONG_TYPE, "type": describe(result)}
    else:
        event |= {"outcome": P.Outcome.RETURNED, "dtype": result.dtype.str[:40], "shape": list(result.shape)[:64]}
        if result.nbytes > job["limits"]["output_bytes"]:
            return event | {"outcome": P.Outcome.OUTPUT_LIMIT}
        if not result.dtype.hasobject:
            event |= _output(result, job.get("digest") is True)
    event["input_hashes"] = {name: _input_hash(*pair) for name, pair in arrays.items()}
    return event


STAGED = "$staged"


def _staged(value: Any, staged: memoryview) -> Any:
    """An argument the zygote placed in the staged mapping (``{"$staged": [start, end]}``, or a ``params`` dict of
    them) as a view of its ``.npy`` bytes; anything else as it came (a bad place is then a malformed argument)."""
    if type(value) is not dict:
        return value
    span = value.get(STAGED)
    if len(value) == 1 and type(span) is list and len(span) == 2 and all(type(n) is int for n in span):
        if 0 <= span[0] <= span[1] <= len(staged):
            return staged[span[0] : span[1]]
        return value
    return {key: _staged(item, staged) for key, item in value.items()}


def _input_hash(array: NDArray[Any], sent: object) -> str:
    """The sha256 of the ``.npy`` np.save would write of ``array`` now.  While it still has the number type, shape
    and C order of the ``.npy`` it was read from (``sent``, written by np.save), that file's header is the one
    np.save would write, so the hash is that header's and then the array's memory: no copy of it is made."""
    if isinstance(sent, (bytes, memoryview)) and (plain := P.plain_npy_header(sent)) is not None:
        shape, fortran, dtype, start = plain
        if not fortran and array.flags.c_contiguous and array.dtype.str == dtype and array.shape == shape:
            digest = hashlib.sha256(sent[:start])
            digest.update(array.data)
            return digest.hexdigest()
    return hashlib.sha256(_npy(array)).hexdigest()


STRUCTURED = ("tuple", "dict")  # a job's "returns": the function returns several arrays in one of these
MAX_MEMBERS = 64


def _output(array: NDArray[Any], digest: bool) -> dict[str, Any]:
    """The result's ``.npy``, or with ``digest`` (a timed job's, ``engine/speed.py``) only its sha256: the judge
    has checked this input's result before and compares the digest with that result's."""
    pieces = _npy_pieces(array)
    if not digest:
        return {"output": P.Pieces(*pieces)}
    digest_of = hashlib.sha256()
    for piece in pieces:
        digest_of.update(piece)
    return {"output_sha256": digest_of.hexdigest()}


def _structured(result: tuple[Any, ...] | dict[str, Any], output_bytes: int, digest: bool = False) -> dict[str, Any]:
    """A returned tuple or dict as it is, member by member; the judge checks it against the declaration."""
    pairs = list(result.items() if type(result) is dict else ((None, value) for value in result))
    members, total = [], 0
    for key, value in pairs[:MAX_MEMBERS]:
        member: dict[str, Any] = {"key": key if type(key) is str else None}
        if type(value) is np.ndarray:
            total += value.nbytes
            if total > output_bytes:
                return {"outcome": P.Outcome.OUTPUT_LIMIT}
            member |= {"dtype": value.dtype.str[:40], "shape": list(value.shape)[:64]}
            if not value.dtype.hasobject:
                member |= _output(value, digest)
        else:
            member["type"] = describe(value)
        members.append(member)
    return {
        "outcome": P.Outcome.RETURNED,
        "container": type(result).__name__,
        "members": members,
        "truncated": len(pairs) > MAX_MEMBERS,
    }


def _input_arrays(args: dict[str, Any], sent: dict[str, Any]) -> dict[str, tuple[NDArray[Any], object]]:
    """Every array argument by name, a ``params`` dict's arrays as ``name["key"]`` (``engine/members.py``), each
    with the ``.npy`` it was read from."""
    arrays = {}
    for name, value in args.items():
        if type(value) is np.ndarray:
            arrays[name] = (value, sent[name])
        elif type(value) is dict:
            arrays |= {f'{name}["{key}"]': (array, sent[name][key]) for key, array in value.items()}
    return arrays


class CappedText(io.TextIOBase):
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


def error_event(exc: BaseException, code_lines: list[str]) -> dict[str, Any]:
    """The exception as an ERROR: the frames of the submission's file, and of its solved modules
    (those with ``module``, the earlier problem's slug); none of NumPy's or the sandbox's."""
    frames = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if not frame.lineno:
            continue
        module = frame.filename[len(SOLVED) + 2 : -1] if frame.filename.startswith(f"<{SOLVED}:") else None
        if frame.filename != P.STUDENT_FILENAME and module not in SOLVED_LINES:
            continue
        source = code_lines if module is None else SOLVED_LINES[module]
        text = source[frame.lineno - 1].strip() if frame.lineno <= len(source) else ""
        frames.append(
            {"line": frame.lineno, "function": frame.name, "text": text[:200]} | ({"module": module} if module else {})
        )
    try:
        message = str(exc)
    except BaseException:  # a hostile __str__
        message = "<unprintable>"
    return {"type": type(exc).__name__[:100], "message": message[:ERROR_MESSAGE_CHARS], "frames": frames[-20:]}


def describe(value: object) -> str:
    kind = type(value)
    if isinstance(value, np.ndarray):
        return f"{kind.__module__}.{kind.__qualname__} (a subclass of numpy.ndarray)"[:200]
    if value is None:
        return "None"
    return f"{kind.__module__}.{kind.__qualname__}".removeprefix("builtins.")[:200]


def _npy(array: NDArray[Any]) -> bytes:
    return b"".join(_npy_pieces(array))


def _npy_pieces(array: NDArray[Any]) -> tuple[bytes | memoryview, ...]:
    """The ``.npy`` of ``array`` as the bytes np.save writes, in pieces: a plain array's header and then its own
    memory (no copy of it is made), any other array's whole file."""
    if (header := _plain_npy_header(array)) is not None:
        return header, array.reshape(-1).view(np.uint8).data
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return (buffer.getvalue(),)


NPY_ALIGN, NPY_GROWTH_DIGITS = 64, 21  # numpy.lib.format's ARRAY_ALIGN and GROWTH_AXIS_MAX_DIGITS


def _plain_npy_header(array: NDArray[Any]) -> bytes | None:
    """The header np.save writes for a C-ordered array of a plain number type, which np.save then follows with
    the array's memory (np.save copies the array twice, through a dozen Python functions a fresh child has to
    write to); None for any other array, which np.save writes."""
    dtype = array.dtype
    if dtype.kind not in "biufc" or dtype.fields is not None or dtype.subdtype is not None or dtype.metadata:
        return None
    if not array.flags.c_contiguous:
        return None
    shape = array.shape
    text = f"{{'descr': {dtype.str!r}, 'fortran_order': False, 'shape': {shape!r}, }}"
    text += " " * (NPY_GROWTH_DIGITS - len(repr(shape[0]))) if shape else ""
    padding = NPY_ALIGN - (len(P.NPY_MAGIC_1_0) + 2 + len(text) + 1) % NPY_ALIGN
    size = len(text) + 1 + padding
    if size > 0xFFFF:
        return None
    return b"".join((P.NPY_MAGIC_1_0, size.to_bytes(2, "little"), text.encode("latin1"), b" " * padding, b"\n"))


class MalformedArgument(Exception):
    """The job gave an argument that is neither ``.npy`` bytes nor a plain int, float or bool."""


SCALAR_TYPES = (int, float, bool)
ARRAY_BYTES = (bytes, memoryview)  # a job's .npy: views of its frame, as the child reads it (``copy=False``)


def _load_args(test: dict[str, Any]) -> dict[str, Any]:
    """Arrays from ``.npy`` bytes; scalars (JSON numbers and booleans) as the plain Python value."""
    args: dict[str, Any] = {}
    for name, value in test["args"].items():
        if isinstance(value, ARRAY_BYTES):
            args[name] = _load_npy(value)
        elif type(value) is dict and all(type(k) is str and isinstance(v, ARRAY_BYTES) for k, v in value.items()):
            args[name] = {key: _load_npy(data) for key, data in value.items()}  # a ``params`` argument
        elif type(value) in SCALAR_TYPES:
            args[name] = value
        else:
            raise MalformedArgument(
                f"argument {str(name)[:100]!r} is neither .npy bytes, a dict of them, nor an int, float or bool"
            )
    return args


def _load_npy(data: bytes | memoryview) -> NDArray[Any]:
    """An input array, read without np.load's general header parser when np.save wrote it
    (``P.plain_npy_header``); the inputs come from the judge, and anything else goes to np.load."""
    if (plain := P.plain_npy_header(data)) is not None:
        shape, fortran, dtype, start = plain
        try:
            flat = np.frombuffer(data, dtype=np.dtype(dtype), offset=start)
            return flat.reshape(shape, order="F" if fortran else "C").copy(order="K")
        except (TypeError, ValueError):
            pass
    loaded: NDArray[Any] = np.load(io.BytesIO(data), allow_pickle=False)
    return loaded


def _call(function: Callable[..., Any], params: list[str], args: dict[str, Any]) -> Any:
    positional = []
    for name in params:
        if name not in args:
            break
        positional.append(args[name])
    keywords = {name: value for name, value in args.items() if name not in params[: len(positional)]}
    return function(*positional, **keywords)


def generate_main(job: dict[str, Any], report: BinaryIO) -> None:
    """Run an author's generator (``generator.py``) and report each case as .npy frames.

    Author code is untrusted too: it runs in the same hardened child as a
    submission, and the judge re-validates every case it reports.
    """
    code = job["code"]
    lines = code.splitlines()
    try:
        compiled = compile(code, P.STUDENT_FILENAME, "exec", dont_inherit=True)
        namespace: dict[str, Any] = {"__name__": "generator", "__builtins__": builtins}
        sys.stdout = sys.stderr = CappedText()
        exec(compiled, namespace)
        generate = namespace.get("generate")
        if not callable(generate):
            raise InvalidCase("the generator must define generate(rng)")
        for index, raw in enumerate(generate(np.random.default_rng(job["seed"]))):
            if index >= job["max_cases"]:
                raise InvalidCase(f"generate() yielded more than {job['max_cases']} cases")
            P.write_frame(report, _case_frame(index, raw, job))
    except BaseException as exc:
        P.write_frame(report, {"event": "generate_error", "error": error_event(exc, lines)})
        return
    P.write_frame(report, {"event": "generated"})


class InvalidCase(Exception):
    pass


def _case_frame(index: int, raw: object, job: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not isinstance(raw.get("args"), dict):
        raise InvalidCase(f"case {index} must be a dict with a string 'name' and a dict 'args'")
    where = f"case {index} ({raw['name'][:100]})"
    args: dict[str, Any] = {}
    for name, value in raw["args"].items():
        if name not in job["params"]:
            raise InvalidCase(f"{where}: unknown argument {str(name)[:100]!r}")
        scalar = _plain_scalar(value)
        if scalar is not None:
            args[name] = scalar
            continue
        if type(value) is dict:  # a ``params`` argument: names to arrays, each checked as an array
            args[name] = {
                str(key)[:100]: _case_array(item, f"{name}[{key!r}]", where, job) for key, item in value.items()
            }
            continue
        args[name] = _case_array(value, repr(name), where, job)
    frame = {"event": "case", "name": raw["name"][:100], "hidden": bool(raw.get("hidden", True)), "args": args}
    if "shape" in raw:
        frame["shape"] = [int(n) for n in raw["shape"]]
    for flag in ("probe", "fd"):  # an input for a probe; a case that also gets the finite-difference check
        if flag in raw:
            if not isinstance(raw[flag], (bool, np.bool_)):
                raise InvalidCase(f"{where}: {flag!r} must be True or False, got {describe(raw[flag])}")
            frame[flag] = bool(raw[flag])
    return frame


def _case_array(value: object, label: str, where: str, job: dict[str, Any]) -> bytes:
    if type(value) is not np.ndarray or value.dtype.hasobject:
        raise InvalidCase(
            f"{where}: argument {label} must be a numeric ndarray, got {describe(value)} "
            "(a scalar argument must be an int, float or bool)"
        )
    if value.nbytes > job["limits"]["output_bytes"]:
        raise InvalidCase(f"{where}: argument {label} is larger than {job['limits']['output_bytes']} bytes")
    return _npy(np.ascontiguousarray(value))


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


REHEARSAL_DELAY_S = 0.002
REHEARSAL_CODE = "import numpy as np\n\ndef rehearse(x, y):\n    return np.concatenate([x, y * 1.0], axis=1)\n"
REHEARSED_LIMITS = (resource.RLIMIT_CPU, resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE, resource.RLIMIT_CORE)


def rehearse(job_fd: int | None) -> None:
    """Run a trusted job of one tiny test, into /dev/null, before the real job arrives.

    After a fork every page the child writes to is copied on first touch, and here a
    page fault costs several microseconds: a job touches a few hundred pages.  The
    rehearsal walks the same path (decoding, compiling, loading, calling, encoding,
    hashing), so the real job finds those pages already copied.  It starts once the
    spare has idled for ``REHEARSAL_DELAY_S``, and between its steps (none takes a
    millisecond) it stops as soon as the job is waiting.  Without ``job_fd`` it runs
    at once and to the end (``warm_up``).
    """
    if job_fd is not None and select.select([job_fd], [], [], REHEARSAL_DELAY_S)[0]:
        return
    frame = rehearsal_frame()
    job: dict[str, Any] = {}
    namespace: dict[str, Any] = {"__name__": "submission", "__builtins__": builtins}
    steps = (
        lambda: job.update(P.read_frame(io.BufferedReader(io.BytesIO(frame)), copy=False)),
        lambda: [resource.setrlimit(name, resource.getrlimit(name)) for name in REHEARSED_LIMITS],  # type: ignore[func-returns-value]  # the list only makes the calls
        current_vm_bytes,
        lambda: namespace.update(code=compile(job["code"], P.STUDENT_FILENAME, "exec", dont_inherit=True)),
        lambda: exec(namespace["code"], namespace),
        lambda: namespace.update(event=run_test(namespace[job["function"]], job, job["tests"][0], [])),
        lambda: P.encode_frame(namespace["event"]),
    )
    try:
        for step in steps:
            if job_fd is not None and select.select([job_fd], [], [], 0)[0]:
                return
            step()
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__


@functools.cache
def rehearsal_frame() -> bytes:
    """The rehearsal's job, made once in the template (``warm_up``): a spare decodes it, it need not encode it."""
    x, y = _npy(np.zeros((2, 1, 3))), _npy(np.ones((2, 2, 3)))
    return P.encode_frame(
        {
            "code": REHEARSAL_CODE,
            "function": "rehearse",
            "params": ["x", "y"],
            "tests": [{"name": "rehearsal", "args": {"x": x, "y": y}}],
            "limits": {"time_limit_s": 1.0, "memory_mb": 64, "output_bytes": 1 << 20},
        }
    )


# CPython 3.11 rewrites a function's bytecode in place as it runs it (quickening after a few calls, then
# specialising each instruction and counting its misses); a fresh child doing that writes to the pages of every
# code object on its path, and each write is a page copied.  Rehearsed this often in the template, the path's
# code is specialised before any child is forked, and lazily made objects (caches, interned names) exist already.
WARM_UP_RUNS = 16


def warm_up() -> None:
    """Rehearse in the template, before it forks any child (trusted code and data only, never a job's)."""
    for _ in range(WARM_UP_RUNS):
        rehearse(None)
