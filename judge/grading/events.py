"""A typed schema for what the sandbox sends back.

The zygote and the student's code share a sandbox, so every field is checked
here: types, lengths and allowed values.  Anything else becomes ``Malformed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.protocol import Outcome, ProtocolError

MAX_TEXT = 4000


class Malformed(ProtocolError):
    pass


def _text(event: dict, key: str, limit: int = MAX_TEXT, required: bool = False) -> str:
    value = event.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise Malformed(f"{key} is not a string")
    return value[:limit]


def _number(event: dict, key: str) -> float:
    value = event.get(key, 0.0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        return 0.0
    return float(min(value, 1e9))


@dataclass(frozen=True)
class ErrorInfo:
    type: str
    message: str
    frames: list[dict] = field(default_factory=list)  # {"line", "function", "text"}

    @classmethod
    def parse(cls, raw: object) -> "ErrorInfo":
        if not isinstance(raw, dict):
            raise Malformed("error is not an object")
        frames = []
        for frame in raw.get("frames") or []:
            if isinstance(frame, dict) and isinstance(frame.get("line"), int):
                frames.append({
                    "line": frame["line"],
                    "function": _text(frame, "function", 100),
                    "text": _text(frame, "text", 200),
                })
        return cls(_text(raw, "type", 100) or "Exception", _text(raw, "message", 2000), frames[-20:])


@dataclass(frozen=True)
class TestEvent:
    __test__ = False

    outcome: str
    time_ms: float = 0.0
    stdout: str = ""
    output: bytes | None = None
    dtype: str = ""
    shape: tuple | None = None
    type_description: str = ""
    input_hashes: dict[str, str] = field(default_factory=dict)
    error: ErrorInfo | None = None
    detail: str = ""

    @classmethod
    def parse(cls, event: dict) -> "TestEvent":
        outcome = event.get("outcome")
        if outcome not in Outcome.ALL:
            raise Malformed(f"unknown outcome {outcome!r:.50}")
        output = event.get("output")
        if output is not None and not isinstance(output, bytes):
            raise Malformed("output is not bytes")
        shape = event.get("shape")
        if shape is not None:
            if not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape):
                raise Malformed("shape is not a list of sizes")
            shape = tuple(shape[:64])
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
        )
