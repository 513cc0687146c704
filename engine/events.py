"""A typed schema for what the sandbox sends back.

The zygote and the student's code share a sandbox, so every field is checked
here: types, lengths and allowed values.  Anything else becomes ``Malformed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sandbox.protocol import BEFORE_TESTS, Outcome, ProtocolError

MAX_TEXT = 4000


class Malformed(ProtocolError):
    pass


def _text(event: dict[str, Any], key: str, limit: int = MAX_TEXT, required: bool = False) -> str:
    value = event.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise Malformed(f"{key} is not a string")
    return value[:limit]


def _number(event: dict[str, Any], key: str) -> float:
    value = event.get(key, 0.0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        return 0.0
    return float(min(value, 1e9))


@dataclass(frozen=True)
class ErrorInfo:
    type: str
    message: str
    # {"line", "function", "text"}, and "module" (a slug) in the student's accepted solution of an earlier problem
    frames: list[dict[str, Any]] = field(default_factory=list)
    module: str = ""  # a load error in the accepted solution of this earlier problem, not in the submission

    @classmethod
    def parse(cls, raw: object) -> ErrorInfo:
        if not isinstance(raw, dict):
            raise Malformed("error is not an object")
        frames = []
        for frame in raw.get("frames") or []:
            if isinstance(frame, dict) and isinstance(frame.get("line"), int):
                frames.append(
                    {
                        "line": frame["line"],
                        "function": _text(frame, "function", 100),
                        "text": _text(frame, "text", 200),
                    }
                    | ({"module": _module(frame)} if _module(frame) else {})
                )
        return cls(_text(raw, "type", 100) or "Exception", _text(raw, "message", 2000), frames[-20:], _module(raw))


def _module(raw: dict[str, Any]) -> str:
    value = raw.get("module")
    return value[:80] if isinstance(value, str) else ""


def own_frames(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames in the submission's own file (not in the solved modules it imports)."""
    return [frame for frame in frames if not frame.get("module")]


MAX_MEMBERS = 64  # the members of a returned tuple or dict the judge reads (engine/members.py)


@dataclass(frozen=True)
class MemberEvent:
    """One member of a returned tuple or dict: an array (its .npy, dtype and shape) or another object (its type)."""

    key: str | None = None  # a dict's key (None: not a string, or a tuple's member)
    output: bytes | None = None
    dtype: str = ""
    shape: tuple[Any, ...] | None = None
    type_description: str = ""

    @classmethod
    def parse(cls, raw: object, container: str) -> MemberEvent:
        if not isinstance(raw, dict):
            raise Malformed("a member is not an object")
        key = raw.get("key")
        if container == "dict" and key is not None and not isinstance(key, str):
            raise Malformed("a member's key is not a string")
        output = raw.get("output")
        if output is not None and not isinstance(output, bytes):
            raise Malformed("a member's output is not bytes")
        return cls(
            key[:100] if isinstance(key, str) and container == "dict" else None,
            output,
            _text(raw, "dtype", 40),
            _shape(raw.get("shape")),
            _text(raw, "type", 200),
        )


def _shape(shape: object) -> tuple[Any, ...] | None:
    if shape is None:
        return None
    if not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise Malformed("shape is not a list of sizes")
    return tuple(shape[:64])


@dataclass(frozen=True)
class TestEvent:
    __test__ = False

    outcome: str
    time_ms: float = 0.0
    stdout: str = ""
    output: bytes | None = None
    dtype: str = ""
    shape: tuple[Any, ...] | None = None
    type_description: str = ""
    input_hashes: dict[str, str] = field(default_factory=dict)
    error: ErrorInfo | None = None
    detail: str = ""
    # A returned tuple or dict (a job that declares several outputs): "tuple" | "dict", and its members.
    container: str = ""
    members: tuple[MemberEvent, ...] = ()
    truncated: bool = False  # it had more than MAX_MEMBERS members

    @classmethod
    def parse(cls, event: dict[str, Any]) -> TestEvent:
        outcome = event.get("outcome")
        if outcome not in Outcome.ALL:
            raise Malformed(f"unknown outcome {outcome!r:.50}")
        output = event.get("output")
        if output is not None and not isinstance(output, bytes):
            raise Malformed("output is not bytes")
        shape = _shape(event.get("shape"))
        container, members = event.get("container", ""), event.get("members") or []
        if container not in ("", "tuple", "dict") or not isinstance(members, list) or len(members) > MAX_MEMBERS:
            raise Malformed("container or members are malformed")
        hashes = event.get("input_hashes") or {}
        if not isinstance(hashes, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and len(v) == 64 for k, v in hashes.items()
        ):
            raise Malformed("input_hashes are not sha256 digests")
        return cls(
            outcome=outcome,
            time_ms=_number(event, "time_ms"),
            stdout=_text(event, "stdout"),
            output=output,
            dtype=_text(event, "dtype", 40),
            shape=shape,
            type_description=_text(event, "type", 200),
            input_hashes=hashes,
            error=ErrorInfo.parse(event["error"]) if outcome == Outcome.ERROR else None,
            detail=_text(event, "detail", 200),
            container=container if outcome == Outcome.RETURNED else "",
            members=tuple(MemberEvent.parse(m, container) for m in members) if outcome == Outcome.RETURNED else (),
            truncated=event.get("truncated") is True,
        )


# --------------------------------------------------------------------------
# The events that end a run before any test, and those of a generate.
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CompileError:
    message: str
    line: int | None
    text: str


@dataclass(frozen=True)
class MissingFunction:
    found: str  # the callables the code does define, comma-separated


@dataclass(frozen=True)
class LoadError:
    error: ErrorInfo | None  # None when the sandbox's description was malformed


BeforeTests = CompileError | MissingFunction | LoadError


def parse_before_tests(event: dict[str, Any]) -> BeforeTests | None:
    """The event that ended a run before its tests, or None if ``event`` is not one."""
    kind = event.get("event")
    if kind not in BEFORE_TESTS:
        return None
    if kind == "compile_error":
        line = event.get("line")
        return CompileError(
            _text(event, "message", 500) if isinstance(event.get("message"), str) else "SyntaxError",
            line if type(line) is int else None,
            _text(event, "text", 200) if isinstance(event.get("text"), str) else "",
        )
    if kind == "missing_function":
        return MissingFunction(_text(event, "found", 200) if isinstance(event.get("found"), str) else "")
    try:
        return LoadError(ErrorInfo.parse(event.get("error")))
    except Malformed:
        return LoadError(None)


@dataclass(frozen=True)
class CaseEvent:
    """One case an author's generator yielded; argument values are checked against the package later."""

    name: str
    hidden: bool
    args: dict[str, object]  # parameter -> .npy bytes or a JSON scalar
    shape: tuple[int, ...] | None
    probe: bool
    fd: bool = False  # also gets the finite-difference check

    @classmethod
    def parse(cls, event: dict[str, Any]) -> CaseEvent:
        name, hidden, args = event.get("name"), event.get("hidden"), event.get("args")
        if event.get("event") != "case" or not isinstance(name, str) or not 0 < len(name) <= 100:
            raise Malformed("has no valid name")
        probe, fd = event.get("probe", False), event.get("fd", False)
        if not isinstance(hidden, bool) or not isinstance(probe, bool) or not isinstance(fd, bool):
            raise Malformed(f"({name}) has invalid 'hidden' or 'probe' (each must be a boolean)")
        if not isinstance(args, dict) or not all(isinstance(key, str) for key in args):
            raise Malformed(f"({name}) has invalid argument names ('args' must map parameter names to values)")
        shape = event.get("shape")
        if shape is not None and (
            not isinstance(shape, list) or len(shape) > 32 or not all(type(n) is int and n >= 0 for n in shape)
        ):
            raise Malformed(f"({name}): 'shape' must be a list of sizes")
        return cls(name, hidden, args, tuple(shape) if shape is not None else None, probe, fd)


parse_case = CaseEvent.parse


def parse_generate_end(event: dict[str, Any]) -> str | None:
    """None if the generator finished; otherwise why it did not, for the author."""
    if event.get("event") == "generated":
        return None
    if event.get("event") != "generate_error":
        return "the generator did not report its end"
    try:
        error = ErrorInfo.parse(event.get("error"))
    except Malformed:
        return "the generator failed"
    line = f" (line {error.frames[-1]['line']}: {error.frames[-1]['text']})" if error.frames else ""
    return f"{error.type}: {error.message}{line}"
