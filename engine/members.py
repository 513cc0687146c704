"""More than one array: a function that returns a tuple or a dict of arrays, and a parameter that takes a dict.

A manifest declares a structured result in ``[function.returns]``::

    [function.returns]
    kind = "tuple"                                   # or "dict"
    names = ["grad_x", "grad_weight", "grad_bias"]   # a tuple's members in order, or a dict's exact keys

and a parameter of kind ``params`` (a dict from names to float64 arrays) with its keys and their numbers of
axes in ``[function.keys.<param>]``::

    [function.kinds]
    grads = "params"

    [function.keys.grads]
    w = 2
    b = 1

Across the sandbox boundary every member is its own ``.npy`` (never pickle): a ``params`` argument travels as
``{key: npy}``, and a structured result comes back as the child saw it (a tuple or a dict, each member's
``.npy``, dtype and shape, or its type), which ``split`` checks against the declaration here, in trusted code.
Inside the engine and in the database a structured value (an expected output, a finite-difference estimate,
what a known-wrong solution returned) is one ``bytes`` value: a zip, stored uncompressed, of ``<name>.npy``
members in declared order (``pack``/``unpack``); a single output stays a plain ``.npy``.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine.arrays import UnreadableArray, from_npy, read_npy, to_npy
from engine.events import MAX_MEMBERS, MemberEvent, TestEvent
from sandbox.protocol import Outcome

TUPLE, DICT = "tuple", "dict"
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class Returns:
    """What a function with several outputs returns: a tuple of ``names`` in order, or a dict of exactly them."""

    kind: str  # tuple | dict
    names: tuple[str, ...]

    def describe(self) -> str:
        if self.kind == TUPLE:
            return f"a tuple of {len(self.names)} arrays ({', '.join(self.names)})"
        return "a dict with the keys " + ", ".join(repr(n) for n in self.names)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "names": list(self.names)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Returns | None:
        return None if not data else cls(data["kind"], tuple(data["names"]))


def input_name(param: str, key: str) -> str:
    """How one array of a ``params`` argument is named in messages and input hashes: ``params["w_q"]``."""
    return f'{param}["{key}"]'


def pack(members: dict[str, bytes]) -> bytes:
    """Several named ``.npy`` values as one bytes value (a zip of ``name.npy``, no pickle, no compression)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            # A fixed date: the same members always pack to the same bytes (the gate compares two runs' bytes).
            archive.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def is_packed(data: bytes) -> bool:
    return data[:4] == ZIP_MAGIC


def unpack(data: bytes) -> dict[str, bytes]:
    """The members of a value ``pack`` made (trusted: the engine wrote it), in order."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {entry.removesuffix(".npy"): archive.read(entry) for entry in archive.namelist()}


def load(data: bytes) -> NDArray[Any] | dict[str, NDArray[Any]]:
    """A stored expected value: the array, or the arrays by member name."""
    if is_packed(data):
        return {name: from_npy(raw) for name, raw in unpack(data).items()}
    return from_npy(data)


class Mismatch(ValueError):
    """The returned container is not the declared one; the message is what the student reads."""


def split(event: TestEvent, returns: Returns, hidden: bool) -> dict[str, TestEvent]:
    """The declared members of a returned tuple or dict, each as the event of a single output.

    Mismatch says how the container differs from the declaration: the other container, a tuple of another
    length, a missing key, a key that is not declared (named on visible tests only: the code chose it).
    """
    got = event.container
    if got != returns.kind:
        other = "a tuple" if got == TUPLE else "a dict"
        hint = (
            "return {" + ", ".join(f"{n!r}: ..." for n in returns.names[:3]) + ", ...}"
            if returns.kind == DICT
            else "return " + ", ".join(returns.names)
        )
        raise Mismatch(f"expected {returns.describe()}, got {other}; {hint}")
    if event.truncated:
        raise Mismatch(f"expected {returns.describe()}, got a {got} of more than {MAX_MEMBERS} members")
    if got == TUPLE:
        if len(event.members) != len(returns.names):
            raise Mismatch(f"expected {returns.describe()}, got a tuple of {len(event.members)}")
        return {name: _single(member, event) for name, member in zip(returns.names, event.members)}
    keys = [member.key for member in event.members]
    if any(key is None for key in keys):
        raise Mismatch(f"expected {returns.describe()}; a key of the returned dict is not a string")
    missing = [name for name in returns.names if name not in keys]
    if missing:
        raise Mismatch(
            f"the returned dict lacks the key{'s' if len(missing) > 1 else ''} "
            + ", ".join(repr(n) for n in missing)
            + f" (expected exactly {_names(returns)})"
        )
    extra = [key for key in keys if key not in returns.names]
    if extra:
        shown = "" if hidden else " " + ", ".join(repr(k[:40]) for k in extra[:3])  # type: ignore[index]  # no key is None: checked above
        raise Mismatch(
            f"the returned dict has {'a key' if len(extra) == 1 else 'keys'} that is not expected{shown}"
            f" (expected exactly {_names(returns)})"
        )
    by_key = {member.key: member for member in event.members}
    return {name: _single(by_key[name], event) for name in returns.names}


def _names(returns: Returns) -> str:
    return ", ".join(repr(n) for n in returns.names)


def _single(member: MemberEvent, event: TestEvent) -> TestEvent:
    if member.output is None and not member.dtype:
        return TestEvent(
            Outcome.WRONG_TYPE,
            event.time_ms,
            event.stdout,
            type_description=member.type_description,
            input_hashes=event.input_hashes,
        )
    return TestEvent(
        Outcome.RETURNED,
        event.time_ms,
        event.stdout,
        output=member.output,
        dtype=member.dtype,
        shape=member.shape,
        input_hashes=event.input_hashes,
    )


def packed_output(event: TestEvent, returns: Returns, max_bytes: int) -> bytes | None:
    """Every member as a float64-or-not C-ordered ``.npy``, packed; None unless each member is a readable array."""
    try:
        members = split(event, returns, hidden=True)
        arrays = {name: read_npy(member.output or b"", max_bytes) for name, member in members.items()}
    except (Mismatch, UnreadableArray):
        return None
    return pack({name: to_npy(np.require(array, requirements="C")) for name, array in arrays.items()})
