"""Output signatures: a short, opaque string saying *how* one test's result was wrong.

Two students whose outputs differ only by float noise get the same signature on a test; different
mistakes (transposed, scaled, shifted by one, cast to float32, NaNs) get different ones.  Mining
(``judge/authoring/mining.py``) groups failing submissions by their signatures on the hidden tests.

What goes in, per test (computed here, in trusted code, while the returned array is at hand; the
array itself is never stored):

* the status, and for arrays the dtype and the exact shape;
* the NaN / +inf / -inf pattern: a digest of each mask (noise does not create NaNs);
* order-independent statistics of the finite values (min, median, max, mean, root mean square) and
  three positional ones (means weighted by fixed pseudo-random +-1 patterns, which a transpose or a
  shift by one position changes), each divided by the expected output's scale and rounded to a step
  of ``max(STEP, NOISE_FACTOR * rtol, NOISE_FACTOR * atol / scale)``: noise within the tolerance
  moves a statistic by at most 1/NOISE_FACTOR of a step, so it rarely crosses a rounding boundary
  (the chance is about 2 * noise / step per statistic: 2e-4 at full tolerance-level noise with
  rtol=1e-7, nil for the 1e-15 of reordered sums);
* where the shape matches the expected one, how far it is, in tolerances: how many positions are
  within tolerance, and the decade (in half decades) of the largest and the median error divided by
  ``atol + rtol * |expected|``.  This separates mistakes that are close to right in different ways
  (rounded to 3 decimals versus an approximate formula);
* for integer outputs (token ids, indices, compared exactly) the same statistics on the scale of the
  expected integers, and in place of the distance in tolerances, how many positions are equal and how
  many are off by one (an off-by-one index differs from a wrong choice);
* for runtime errors the exception's type and message (what diagnosis matches too), for wrong types
  the type description, for inputs modified in place which inputs.

Only ``status:digest`` is stored: the statistics involve the hidden expected output, so they are
hashed rather than kept readable.
"""

from __future__ import annotations

import functools
import hashlib
import math
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from engine.arrays import UnreadableArray, read_npy
from engine.checks import error_signature
from engine.events import TestEvent
from engine.verdicts import TestStatus

STEP = 1e-3  # the coarsest relative rounding of a statistic (about three significant digits)
NOISE_FACTOR = 100  # a step is at least this many tolerances wide
PROJECTIONS = 3
DIGEST_CHARS = 16


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:DIGEST_CHARS]


def signature(
    status: str,
    *,
    actual: NDArray[Any] | None = None,
    expected: NDArray[Any] | None = None,
    rtol: float = 0.0,
    atol: float = 0.0,
    detail: str = "",
) -> str:
    """The signature of one failing test; ``detail`` is the error ("Type: message"), type description or
    modified inputs where there is no array to fingerprint.  Passed and not-run tests have none ("")."""
    if status in (TestStatus.PASSED, TestStatus.NOT_RUN):
        return ""
    if actual is None or expected is None:
        return f"{status}:{_digest(detail)}"
    return f"{status}:{_digest(detail, *array_features(actual, expected, rtol, atol))}"


def array_features(actual: NDArray[Any], expected: NDArray[Any], rtol: float, atol: float) -> tuple[Any, ...]:
    """The rounded features of ``actual`` against ``expected`` (see the module docstring)."""
    values = _as_float(actual)
    scale = _scale(expected, atol)
    step = max(STEP, NOISE_FACTOR * rtol, NOISE_FACTOR * atol / scale)
    masks = tuple(
        _digest(values.shape, np.packbits(test(values)).tobytes()) for test in (np.isnan, np.isposinf, np.isneginf)
    )
    features: tuple[Any, ...] = (str(actual.dtype), tuple(actual.shape), masks, _statistics(values, scale, step))
    if values.shape == expected.shape and expected.dtype.kind == "f":
        features += (_distance(values, expected, rtol, atol),)
    elif values.shape == expected.shape and expected.dtype.kind in "iu":
        with np.errstate(all="ignore"):
            off = np.abs(values - expected.astype(np.float64))
        features += (int(np.count_nonzero(off == 0)), int(np.count_nonzero(off == 1)))
    return features


def _as_float(actual: NDArray[Any]) -> NDArray[Any]:
    if actual.dtype.kind == "c":
        actual = np.abs(actual)
    try:
        return np.asarray(actual, dtype=np.float64)
    except (TypeError, ValueError):
        return np.full(actual.shape, np.nan)


def _scale(expected: NDArray[Any], atol: float) -> float:
    if expected.dtype.kind in "iu":  # exact integers: the statistics are rounded on the ids' own scale
        finite = expected.astype(np.float64).ravel()
        return max(float(np.sqrt(np.mean(finite * finite))) if finite.size else 0.0, 1.0)
    finite = expected[np.isfinite(expected)] if expected.dtype.kind == "f" else np.zeros(0)
    rms = float(np.sqrt(np.mean(finite * finite))) if finite.size else 0.0
    return max(rms, atol, 1e-300)


def _rounded(value: float, scale: float, step: float) -> int | str:
    ratio = value / scale / step
    return round(ratio) if math.isfinite(ratio) else repr(ratio)


def _statistics(values: NDArray[Any], scale: float, step: float) -> tuple[Any, ...]:
    finite = np.isfinite(values)
    picked = values[finite]
    if picked.size == 0:
        return ()
    with np.errstate(all="ignore"):
        stats = [picked.min(), np.median(picked), picked.max(), picked.mean(), np.sqrt(np.mean(picked * picked))]
        zeroed = np.where(finite, values, 0.0).ravel()
        for pattern in _patterns(values.shape):
            stats.append(float(np.dot(zeroed, pattern)) / zeroed.size)
    return tuple(_rounded(float(s), scale, step) for s in stats)


CACHED_PATTERN_SIZE = 1 << 16
CACHED_SHAPES = 32


def _patterns(shape: tuple[Any, ...]) -> tuple[NDArray[Any], ...]:
    """Fixed +-1 weights for an array of this shape: the same for every student, different per position.

    The same few shapes come back at every grading of a problem: up to CACHED_PATTERN_SIZE values, a shape's
    weights are drawn once per process (read-only, at most CACHED_SHAPES * 3 * 512 KiB)."""
    return _cached_patterns(shape) if math.prod(shape) <= CACHED_PATTERN_SIZE else _draw_patterns(shape)


def _draw_patterns(shape: tuple[Any, ...]) -> tuple[NDArray[Any], ...]:
    size = math.prod(shape)
    rng = np.random.default_rng(size + 7919 * len(shape))
    return tuple(rng.choice((-1.0, 1.0), size=size) for _ in range(PROJECTIONS))


@functools.lru_cache(maxsize=CACHED_SHAPES)
def _cached_patterns(shape: tuple[Any, ...]) -> tuple[NDArray[Any], ...]:
    patterns = _draw_patterns(shape)
    for pattern in patterns:
        pattern.setflags(write=False)
    return patterns


def _distance(values: NDArray[Any], expected: NDArray[Any], rtol: float, atol: float) -> tuple[Any, ...]:
    both = np.isfinite(values) & np.isfinite(expected)
    if not both.any():
        return ()
    with np.errstate(all="ignore"):
        allowed = atol + rtol * np.abs(expected[both])
        error = np.abs(values[both] - expected[both]) / np.where(allowed > 0, allowed, 1e-300)
    within = int(np.count_nonzero(error <= 1.0))
    return within, _half_decade(float(error.max())), _half_decade(float(np.median(error)))


def _half_decade(ratio: float) -> int | str:
    if ratio <= 1.0:
        return 0
    return math.floor(2 * math.log10(ratio)) if math.isfinite(ratio) else "inf"


ARRAY_STATUSES = {TestStatus.WRONG_DTYPE, TestStatus.WRONG_SHAPE, TestStatus.WRONG_VALUE, TestStatus.INPUT_MUTATED}


def signature_of(
    event: TestEvent, status: str, expected: NDArray[Any] | None, rtol: float, atol: float, max_output_bytes: int
) -> str:
    """The signature of a test result graded from ``event`` (the sandbox's, already parsed); ``expected`` is
    needed for a wrong array only (None: a passed test's, not read)."""
    if status in ARRAY_STATUSES and event.output is not None and expected is not None:
        try:
            actual = read_npy(event.output, max_output_bytes + 4096)
        except UnreadableArray:
            return signature(status, detail="unreadable")
        return signature(status, actual=actual, expected=expected, rtol=rtol, atol=atol)
    if status == TestStatus.RUNTIME_ERROR:
        return signature(status, detail=error_signature(event))
    return signature(status, detail=event.type_description or event.dtype or "")


# --------------------------------------------------------------------------
# Clusters: submissions that failed the same hidden tests in the same ways
# --------------------------------------------------------------------------


TIME_LIMIT = "the time limit"  # in a cluster key, in place of the test a submission ran out of time on


def cluster_key(results: list[dict[str, Any]]) -> tuple[tuple[str, str], ...]:
    """(test, signature) of every hidden test the results failed, by test name; () if none has a signature
    (a result graded before signatures existed, or one that failed before its tests).  A test whose inputs
    were a secret draw (``drawn``) counts by its status alone: two Submits rarely meet the same draw, and
    their run order (smallest inputs first) differs with the draw, hence the order by name.

    A submission killed for time counts as ``(TIME_LIMIT, "time_limit_exceeded")``, whichever test it ran
    out of time on, visible or hidden: how slow it is decides which, and the tests after it did not run. The
    hidden tests it failed before still tell its mistakes apart."""
    failed = [t for t in results if isinstance(t, dict) and t.get("signature")]
    key = {
        (str(t.get("name", "")), _comparable(t))
        for t in failed
        if t.get("hidden") and t.get("status") != TestStatus.TIME_LIMIT_EXCEEDED
    }
    if any(t.get("status") == TestStatus.TIME_LIMIT_EXCEEDED for t in failed):
        key.add((TIME_LIMIT, TestStatus.TIME_LIMIT_EXCEEDED.value))
    return tuple(sorted(key))


def _comparable(test: dict[str, Any]) -> str:
    signature = str(test["signature"])
    return signature.split(":", 1)[0] + ":drawn" if test.get("drawn") else signature


def cluster_id(key: tuple[tuple[str, str], ...]) -> str:
    return _digest(key)[:12]


def explained(results: list[dict[str, Any]]) -> bool:
    """Whether a named misconception explains the results (one of its failing tests carries one)."""
    return any(isinstance(t, dict) and t.get("misconception") for t in results)


Item = TypeVar("Item")


def group(submissions: list[tuple[Item, list[dict[str, Any]]]]) -> dict[tuple[Any, ...], list[Item]]:
    """Items (anything, with their results) that no misconception explains, by cluster key; largest first."""
    clusters: dict[tuple[Any, ...], list[Item]] = {}
    for item, results in submissions:
        key = cluster_key(results)
        if key and not explained(results):
            clusters.setdefault(key, []).append(item)
    return dict(sorted(clusters.items(), key=lambda kv: (-len(kv[1]), kv[0])))
