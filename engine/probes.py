"""Probes: properties a correct output has, checked on the student's outputs.

A problem declares probes in ``problem.toml`` (``[[probes]]``); its generator
yields the inputs built to probe them (cases with ``"probe": True``).  They run
in the same sandbox job as the tests, after them, and the relation is checked
here, by trusted code, on what came back: "changing a later key changed an
earlier query's output" says more than "wrong value at index (0, 2, 1)".
"falls" reads one output: along ``axis`` every entry is below the one before it
(a loss per training step, with a step small enough that each one helps).
"distribution" reads many: each probe case whose name starts with its prefix is one draw of a sampler
(the id at ``region``), and every id's share of the draws must be within ``within`` of its probability.
Probe inputs are hidden inputs, so a message names the property, never where
the output broke it: that index is the code's to choose, and it could spell out
the inputs.  A message written with ``{index}`` (an older package) reads
``(not shown)`` there.
A probe only speaks when every output it needs is an array of the reference's
dtype (float64, or the integer dtype declared) and shape without NaN (a distribution's draws may differ in
length: a sampler's output can be as long as its choices make it); otherwise the ordinary checks explain more.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np
from numpy.typing import NDArray

from engine import members
from engine.arrays import UnreadableArray, read_npy
from engine.events import Malformed, TestEvent
from engine.members import Mismatch, split
from engine.spec import Case, ProbeSpec, ProblemSpec
from sandbox.protocol import Outcome

Region = tuple[Any, ...]  # of ints, slices and Ellipsis
INDEX_NOT_SHOWN = "(not shown)"


class RegionError(ValueError):
    pass


def parse_region(text: str) -> Region:
    """``"[:, :5, ::-1]"`` as an index tuple; only integers, slices and ``...`` are allowed (nothing is evaluated)."""
    if not text.strip():
        return ()
    try:
        node = ast.parse("x" + text.strip(), mode="eval").body
    except SyntaxError:
        raise RegionError(f"must be NumPy slice syntax such as '[:, :5]', got {text!r}") from None
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Name):
        raise RegionError(f"must be one subscript such as '[:, :5]', got {text!r}")
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return tuple(_index(item, text) for item in items)


def _index(node: ast.AST, text: str) -> Any:
    if isinstance(node, ast.Slice):
        return slice(*(None if part is None else _integer(part, text) for part in (node.lower, node.upper, node.step)))
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return Ellipsis
    return _integer(node, text)


def _integer(node: ast.AST, text: str) -> int:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_integer(node.operand, text)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    raise RegionError(f"may hold only integers, slices and '...', got {text!r}")


def evaluate_probes(spec: ProblemSpec, cases: list[Case], events: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The probes that the outputs in ``events`` (by probe case name) break, as shown to the student."""
    by_name = {case.name: case for case in cases}
    broken = []
    for probe in spec.probes:
        names = probe.reads([case.name for case in cases])
        # A draw's output may be as long as the sampler's choices make it: only its dtype must be the reference's.
        outputs = [
            _output(events.get(name), by_name.get(name), spec, probe.member, probe.check != "distribution")
            for name in names
        ]
        if any(output is None for output in outputs):
            continue
        present = [output for output in outputs if output is not None]
        if breaks(probe, present, spec.rtol, spec.atol) is not None:
            broken.append(
                {
                    "name": probe.name,
                    "message": probe.message.replace("{index}", INDEX_NOT_SHOWN),
                    "explanation": probe.explanation,
                    "see": probe.see,
                }
            )
    return broken


def _output(
    raw: dict[str, Any] | None, case: Case | None, spec: ProblemSpec, member: str = "", same_shape: bool = True
) -> NDArray[Any] | None:
    """The output a probe reads: the returned array, or the ``member`` of a returned tuple or dict."""
    if raw is None or case is None:
        return None
    try:
        event = TestEvent.parse(raw)
        if member and spec.returns is not None and event.outcome == Outcome.RETURNED:
            event = split(event, spec.returns, hidden=True)[member]
        if event.outcome != Outcome.RETURNED or event.output is None:
            return None
        actual = read_npy(event.output, spec.max_output_bytes + 4096)
    except (Malformed, UnreadableArray, Mismatch):
        return None
    reference = members.load(case.expected)
    reference = reference[member] if isinstance(reference, dict) else reference
    if actual.dtype != reference.dtype or (same_shape and actual.shape != reference.shape) or np.isnan(actual).any():
        return None
    return actual


def breaks(probe: ProbeSpec, outputs: list[NDArray[Any]], rtol: float, atol: float) -> str | None:
    """Where ``outputs`` break the probe (an index as text, or "" when there is none to name), or None."""
    if probe.check == "distribution":
        return _unlike_distribution(probe, outputs)
    try:
        views = [_view(output, probe) for output in outputs]
        first = views[0][parse_region(probe.region)]
        if probe.check == "sums_to_one":
            sums = first.sum(axis=probe.axis)
            return _first_false(np.isclose(sums, 1.0, rtol=max(rtol, 1e-9), atol=max(atol, 1e-9)))
        if probe.check == "falls":  # each entry below the one before it; the first has none before it
            fell = np.diff(first, axis=probe.axis) < 0
            if not fell.size:
                return None
            return _first_false(
                np.concatenate([np.ones_like(np.take(fell, [0], axis=probe.axis)), fell], axis=probe.axis)
            )
        if probe.check == "values_in":
            allowed = np.zeros(first.shape, dtype=bool)
            for value in probe.values:
                allowed |= first == value if not np.isfinite(value) else np.isclose(first, value, rtol=rtol, atol=atol)
            return _first_false(allowed)
        second = views[1][parse_region(probe.region_b or probe.region)]
    except (IndexError, ValueError, np.exceptions.AxisError):
        return None  # the output does not have the shape the probe reads: the other checks say why
    if first.shape != second.shape:
        return None
    same = _close(first, second, rtol, atol)
    if probe.check == "unchanged":
        return _first_false(same)
    return "" if same.all() else None


def _unlike_distribution(probe: ProbeSpec, outputs: list[NDArray[Any]]) -> str | None:
    """Each output is one draw: the id at ``region``. "" when some id's share of the draws is further than
    ``within`` from its probability in ``values`` (or a draw is no such id), None when the shares fit."""
    if not outputs:
        return None
    try:
        draws = [output[parse_region(probe.region)] for output in outputs]
    except (IndexError, ValueError):
        return None
    if any(np.ndim(draw) != 0 or np.asarray(draw).dtype.kind not in "iu" for draw in draws):
        return None  # not one id per draw: the other checks say why
    ids = np.array(draws, dtype=np.int64)
    if ids.min() < 0 or ids.max() >= len(probe.values):
        return ""
    shares = np.bincount(ids, minlength=len(probe.values)) / len(ids)
    return "" if np.abs(shares - np.array(probe.values)).max() > probe.within else None


def _view(output: NDArray[Any], probe: ProbeSpec) -> NDArray[Any]:
    if probe.compare == "gram":
        gram: NDArray[Any] = output @ np.swapaxes(output, -1, -2)
        return gram
    return output


def _close(a: NDArray[Any], b: NDArray[Any], rtol: float, atol: float) -> NDArray[Any]:
    infinite = ~np.isfinite(a) | ~np.isfinite(b)
    with np.errstate(all="ignore"):
        close = np.abs(a - b) <= atol + rtol * np.abs(b)
    return np.where(infinite, a == b, close)


def _first_false(ok: NDArray[Any]) -> str | None:
    if ok.all():
        return None
    index = tuple(int(i) for i in np.argwhere(~ok)[0])
    return str(index[0]) if len(index) == 1 else str(index)
