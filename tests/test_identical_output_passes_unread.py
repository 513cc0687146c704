"""A result whose bytes are the expected output's own passes without either array being read, with the very
result the full checks give it; anything else (other bytes, a mutated input, a dtype the problem does not
want) goes through the full checks, so a failing test's message is theirs."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine.checks import Tolerance, check_test, passed_as_expected
from engine.events import TestEvent
from sandbox.protocol import Outcome
from tests.helpers import npy

HASHES = {"x": "a" * 64}
LIMIT = 1 << 20


def returned(output: bytes, hashes: dict[str, str] = HASHES) -> TestEvent:
    return TestEvent.parse(
        {"event": "test", "outcome": Outcome.RETURNED, "time_ms": 1.5, "stdout": "printed", "output": output,
         "input_hashes": hashes}
    )  # fmt: skip


def full(event: TestEvent, expected: bytes, hidden: bool):
    return check_test(
        event,
        name="t",
        hidden=hidden,
        expected=np.load(io.BytesIO(expected)),
        input_hashes=HASHES,
        tolerance=Tolerance(1e-7, 1e-9),
        max_output_bytes=LIMIT,
    )


def quick(event: TestEvent, expected: bytes, hidden: bool):
    return passed_as_expected(
        event, name="t", hidden=hidden, expected_npy=expected, input_hashes=HASHES, max_output_bytes=LIMIT
    )


@pytest.mark.parametrize(
    "expected",
    [
        np.linspace(-1, 1, 12).reshape(3, 4),
        np.array([[0.5, np.nan], [np.inf, -np.inf]]),
        np.float64(2.5) * np.ones(()),
        np.arange(6, dtype=np.int64).reshape(2, 3),  # passed ids keep the array, for the decoded-tokens picture
        np.arange(4, dtype=np.int8),
    ],
)
@pytest.mark.parametrize("hidden", [False, True])
def test_the_expected_bytes_back_pass_as_the_full_checks_say(expected, hidden):
    data = npy(expected)
    fast = quick(returned(data), data, hidden)
    assert fast is not None and fast.status == "passed"
    assert fast.as_dict() == full(returned(data), data, hidden).as_dict()


def test_other_bytes_a_mutated_input_or_an_unwanted_dtype_take_the_full_checks():
    expected = np.linspace(0, 1, 6)
    data = npy(expected)
    assert quick(returned(npy(expected + 1e-12)), data, False) is None  # within tolerance: full checks pass it
    assert full(returned(npy(expected + 1e-12)), data, False).status == "passed"
    mutated = returned(data, {"x": "b" * 64})
    assert quick(mutated, data, False) is None
    assert full(mutated, data, False).status == "input_mutated"
    single = npy(expected.astype(np.float32))
    assert quick(returned(single), single, False) is None  # a float32 expected: the full checks refuse it
    assert full(returned(single), single, False).status == "wrong_dtype"
