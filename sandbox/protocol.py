"""The contract between the trusted judge and the sandbox.

Everything that crosses the boundary is a *frame*: a 4-byte big-endian length,
then that many bytes of body.  The body is a 4-byte big-endian length, that many
bytes of UTF-8 JSON, and the frame's attachments: every ``bytes`` value of a
message (arrays, as ``.npy`` bytes, never pickle) travels raw after the JSON, which
holds ``{"$bytes": [start, end]}`` in its place (offsets into the attachments).
No base64, no escaping: a 100k-element array is copied, not re-encoded.
``sandbox/CONTRACT.md`` describes
the messages in prose; this module is the single implementation of the framing,
imported by both sides.  It must stay free of Django and of NumPy so that the
sandbox image only needs the standard library and NumPy.

Requests (judge -> zygote)::

    {"op": "ping"}
    {"op": "run", "code": str, "modules": {slug: str}, "function": str, "params": [str, ...],
     "returns"?: "tuple" | "dict",   # several arrays out: a test event then carries "container" and "members"
     "timed"?: true,   # speed (engine/speed.py): no process or thread may start; "cpu" events follow tests
     "digest"?: true,  # timed: each array result as "output_sha256" (its .npy's sha256), not "output"
     "tests": [{"name": str, "args": {param: npy | {key: npy} | int | float | bool}}, ...],
     "limits": {"time_limit_s": float, "memory_mb": int, "output_bytes": int, "budget_s": float | None}}
    {"op": "generate", "code": str, "seed": int, "params": [str, ...], "max_cases": int,
     "limits": {"time_limit_s": float, "memory_mb": int, "output_bytes": int}}

Events (zygote -> judge), in order, for a run::

    {"event": "compile_error", "message": str, "line": int | None, "text": str}
    {"event": "missing_function", "found": str | None}
    {"event": "load_error", "error": ERROR}      # module-level code raised ("module": slug, in one of modules)
    {"event": "test", "name": str, "outcome": OUTCOME, ...}   # one per test, up to the first timeout
    {"event": "cpu", "name": str, "cpu_ms": float | None}      # timed: after each test, the zygote's own reading
    {"event": "done", "anomaly": str | None}
    {"event": "clean", "anomaly": str | None}    # after the job's processes were killed

Events of a generate (an author's ``generator.py`` run in a hardened child)::

    {"event": "case", "name": str, "hidden": bool, "args": {param: npy | int | float | bool},
     "shape"?: [int], "probe"?: bool, "fd"?: bool}
    {"event": "generated"} | {"event": "generate_error", "error": ERROR}
    {"event": "done", "anomaly": str | None}
    {"event": "clean", "anomaly": str | None}    # after the job's processes were killed

``modules`` are earlier problems' code, run before the submission, each in its own
namespace: ``from solved import <slug>`` gives the function ``<slug>`` each defines.
A frame of an ERROR in one of them carries ``"module": slug``.

An argument is an array (``.npy`` bytes, an attachment) or a plain JSON scalar
(int, float, ``Infinity``/``NaN`` included, or bool), which the student's
function receives as the Python value; ``input_hashes`` cover the arrays only.

A pong is ``{"event": "pong", "numpy": str, "python": str}``.  The outcomes of
a test event are listed in ``Outcome``; the judge validates every field.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import time
from typing import Any, BinaryIO

HEADER = struct.Struct(">I")
BYTES = "$bytes"  # the JSON stand-in for an attachment
# A frame carries at most one test's output and its input hashes; the judge
# enforces the per-problem output limit itself, this is only a hard ceiling.
MAX_FRAME_BYTES = 64 * 1024 * 1024
STUDENT_FILENAME = "<submission>"
# The largest result (or input argument) a test may carry, unless a job's limits say less.
MAX_OUTPUT_BYTES = 16 * 1024 * 1024
# Events that end a run before any test: the code did not compile, lacks the function, or failed to load.
BEFORE_TESTS = ("compile_error", "missing_function", "load_error")


class ProtocolError(Exception):
    """The peer sent something that is not a well-formed frame."""


class FrameTooLarge(ProtocolError):
    """The peer announced a frame longer than the reader accepts."""

    def __init__(self, size: int, max_bytes: int) -> None:
        super().__init__(f"a frame of {size} bytes exceeds the limit of {max_bytes}")
        self.size = size


class FrameTimeout(Exception):
    """No whole frame came before the deadline."""


class Outcome:
    """What happened when the sandbox called the student's function once."""

    RETURNED = "returned"  # "output": npy, "dtype", "shape", "input_hashes"
    WRONG_TYPE = "wrong_type"  # "type": a description of what came back
    ERROR = "error"  # "error": ERROR (an exception escaped the function)
    TIMEOUT = "timeout"  # a limit or the job's budget killed the child ("detail"); the job ends there
    MEMORY = "memory"  # the memory limit killed the child
    OUTPUT_LIMIT = "output_limit"  # the result was larger than allowed
    CRASHED = "crashed"  # the child died without reporting ("detail")

    ALL = (RETURNED, WRONG_TYPE, ERROR, TIMEOUT, MEMORY, OUTPUT_LIMIT, CRASHED)
    # A limit was hit or the child died: the sandbox that ran it is replaced.
    RECYCLE = (TIMEOUT, MEMORY, CRASHED, OUTPUT_LIMIT)


class Pieces:
    """One attachment given as consecutive byte strings (a ``.npy``'s header and its array's memory), written one
    after another: a megabyte's result then reaches the pipe without being joined into one string, twice."""

    __slots__ = ("nbytes", "pieces")

    def __init__(self, *pieces: bytes | memoryview) -> None:
        self.pieces = pieces
        self.nbytes = sum(memoryview(piece).nbytes for piece in pieces)


def encode_frame(message: dict[str, Any]) -> bytes:
    return b"".join(encode_parts(message))


def encode_body(message: dict[str, Any]) -> bytes:
    """A frame's body without its length: ``encode_frame(message)[HEADER.size:]`` without copying the frame."""
    return b"".join(encode_parts(message)[1:])


def encode_parts(message: dict[str, Any]) -> list[bytes | bytearray | memoryview]:
    """A frame as the pieces to write one after another: its length, the JSON's length, the JSON and each
    attachment (an attachment may be a ``memoryview``, as ``decode_body(..., copy=False)`` gives them)."""
    attachments: list[bytes | bytearray | memoryview] = []
    size = 0

    def detach(value: Any) -> Any:
        """Called by the JSON encoder (in C) for what JSON has no type for: only bytes are given a place."""
        nonlocal size
        if isinstance(value, (bytes, bytearray, memoryview)):
            attachments.append(value)
            length = memoryview(value).nbytes
        elif isinstance(value, Pieces):
            attachments.extend(value.pieces)
            length = value.nbytes
        else:
            raise TypeError(f"{type(value).__name__} cannot be sent")
        size += length
        return {BYTES: [size - length, size]}

    text = json.dumps(message, separators=(",", ":"), default=detach).encode("utf-8")
    body_size = HEADER.size + len(text) + size
    if body_size > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {body_size} bytes exceeds {MAX_FRAME_BYTES}")
    return [HEADER.pack(body_size), HEADER.pack(len(text)), text, *attachments]


def write_frame(stream: BinaryIO, message: dict[str, Any]) -> None:
    """Write the frame piece by piece: a buffered stream gathers the small ones and passes a large one (an
    attachment) straight on, so a result is not copied into a joined frame first."""
    stream.writelines(encode_parts(message))
    stream.flush()


def decode_body(body: bytes, copy: bool = True) -> dict[str, Any]:
    """The message of a frame's ``body``; its attachments as ``bytes``, or, without ``copy``, as read-only views
    of ``body`` (the zygote only passes on what it relays: a megabyte's result is then not copied once more)."""
    if len(body) < HEADER.size:
        raise ProtocolError("frame is shorter than its JSON length")
    (text_size,) = HEADER.unpack_from(body)
    if text_size > len(body) - HEADER.size:
        raise ProtocolError("frame's JSON length exceeds the frame")
    attachments = memoryview(body).toreadonly()[HEADER.size + text_size :]

    def attach(value: dict[str, Any]) -> Any:
        """Called by the JSON decoder (in C) for every object, innermost first: a ``$bytes`` one is its bytes."""
        if len(value) == 1 and BYTES in value:
            span = value[BYTES]
            if not (
                isinstance(span, list)
                and len(span) == 2
                and all(type(n) is int for n in span)
                and 0 <= span[0] <= span[1] <= len(attachments)
            ):
                raise ProtocolError("frame refers to bytes it does not carry")
            return bytes(attachments[span[0] : span[1]]) if copy else attachments[span[0] : span[1]]
        return value

    try:
        message = json.loads(bytes(body[HEADER.size : HEADER.size + text_size]).decode("utf-8"), object_hook=attach)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ProtocolError(f"frame is not UTF-8 JSON: {str(exc)[:200]}") from None
    if not isinstance(message, dict):
        raise ProtocolError("frame is not a JSON object")
    return message


class FrameReader:
    """Frames out of bytes that arrive in chunks, read against a deadline.

    The one reader both sides use: the judge on the zygote's output
    (``sandbox.backends.base.FrameChannel``), the zygote on a child's report pipe
    (``sandbox.zygote.supervisor.ReportStream``).
    A subclass says where the bytes come from (``read_some``).
    """

    copy_attachments = True  # False: a message's attachments are views of its body (``decode_body``)

    def __init__(self) -> None:
        self.buffer = bytearray()

    def read_some(self, timeout: float) -> bytes:
        """Whatever arrives within ``timeout`` seconds, maybe nothing; an exception at the end of the stream."""
        raise NotImplementedError

    def next_frame(self, deadline: float, max_bytes: int = MAX_FRAME_BYTES) -> tuple[bytes, dict[str, Any]]:
        """The next frame's body and message, once it is whole.

        FrameTooLarge as soon as its length says it is over ``max_bytes``, ProtocolError
        when it is malformed, FrameTimeout at ``deadline`` (``time.monotonic()``).
        """
        while True:
            if len(self.buffer) >= HEADER.size:
                (size,) = HEADER.unpack_from(self.buffer)
                if size > max_bytes:
                    raise FrameTooLarge(size, max_bytes)
                if len(self.buffer) >= HEADER.size + size:
                    with memoryview(self.buffer) as buffered:  # one copy, where a slice of the bytearray made two
                        body = bytes(buffered[HEADER.size : HEADER.size + size])
                    del self.buffer[: HEADER.size + size]
                    return body, decode_body(body, self.copy_attachments)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FrameTimeout("no whole frame before the deadline")
            self.buffer += self.read_some(remaining)


def read_exact(stream: BinaryIO, size: int) -> bytes:
    chunks = []
    remaining = size
    while remaining:
        chunk = stream.read(remaining)
        if not chunk:
            raise EOFError(f"stream ended with {remaining} of {size} bytes missing")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(stream: BinaryIO, max_bytes: int = MAX_FRAME_BYTES, copy: bool = True) -> dict[str, Any]:
    """The next frame's message; without ``copy``, its attachments are read-only views of the frame (``decode_body``)."""
    (size,) = HEADER.unpack(read_exact(stream, HEADER.size))
    if size > max_bytes:
        raise ProtocolError(f"frame of {size} bytes exceeds the limit of {max_bytes}")
    return decode_body(read_exact(stream, size), copy)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# The header np.save writes for a plain array (version 1.0: magic, version, a 2-byte length, the text padded
# with spaces to a newline): a number type, its order and a shape.  Both sides read arrays this way when the
# header is exactly that: numpy's general parser compiles the header as a Python literal, a tenth of a
# millisecond per array (bench/npy_reading.py), more than reading a small array takes.
NPY_MAGIC_1_0 = b"\x93NUMPY\x01\x00"
_PLAIN_NPY_HEADER = re.compile(
    rb"\{'descr': '([<>|][biufc]\d{1,2})', 'fortran_order': (False|True), "
    rb"'shape': \((\d{1,18},|\d{1,18}(?:, \d{1,18})+|)\), \} *\n"
)


def plain_npy_header(data: bytes | memoryview) -> tuple[tuple[int, ...], bool, str, int] | None:
    """(shape, Fortran order, dtype string, where the data starts) when ``data`` begins with such a header;
    None for any other, which numpy's own parser then reads."""
    if data[:8] != NPY_MAGIC_1_0 or len(data) < 10:
        return None
    end = 10 + int.from_bytes(data[8:10], "little")
    match = _PLAIN_NPY_HEADER.fullmatch(bytes(data[10:end]))  # the header alone as bytes: ``data`` may be a view
    if match is None:
        return None
    return tuple(int(n) for n in match[3].split(b",") if n), match[2] == b"True", match[1].decode(), end
