"""Quantised weights are int8, in and out (issue 41: quantize_int8 returns int8 q, int8_linear takes it).

An output declared ``int8`` is checked like int64 ids: that exact dtype, values compared exactly, and a float
or int64 array of the right numbers is a wrong dtype with advice on converting. A parameter of kind
``int8_array`` receives an int8 ndarray; an array argument is bounded by bytes, so an int8 weight may hold eight
times as many values as a float64 one (its float copy must be able to outgrow a test's memory limit).
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine.arrays import to_npy
from engine.checks import Tolerance, check_test
from engine.custom_input import BadLiteral, check_value
from engine.events import TestEvent
from engine.package import PackageError
from engine.spec import ParamKind
from engine.testset import MAX_CASE_ELEMENTS, _argument
from sandbox.protocol import Outcome

EXPECTED = np.array([[51, -127, 0], [-127, 76, 0]], dtype=np.int8)


def checked(actual: np.ndarray, hidden: bool = False):
    event = TestEvent(
        Outcome.RETURNED, 1.0, "", output=to_npy(actual), dtype=actual.dtype.str, shape=actual.shape, input_hashes={}
    )
    return check_test(
        event,
        name="t",
        hidden=hidden,
        expected=EXPECTED,
        input_hashes={},
        tolerance=Tolerance(1e-9, 1e-12),
        max_output_bytes=1 << 20,
    )


def test_the_same_int8_values_pass():
    assert checked(EXPECTED.copy()).status == "passed"


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_the_right_numbers_in_another_dtype_are_a_wrong_dtype_told_how_to_convert(dtype):
    result = checked(EXPECTED.astype(dtype))
    assert result.status == "wrong_dtype"
    assert result.message == (
        f"expected an int8 array of shape (2, 3), got {np.dtype(dtype).name} of shape (2, 3); "
        "the values are int8 integers: convert them with .astype(np.int8) once they fit its range"
    )


def test_int8_values_are_compared_exactly():
    off = EXPECTED.copy()
    off[1, 1] = 77
    result = checked(off)
    assert result.status == "wrong_value"
    assert result.message == (
        "integer values differ at 1 of 6 positions (compared exactly); first mismatch at index "
        "(1, 1): expected 76, got 77"
    )


def test_an_int8_weight_may_hold_eight_times_the_values_of_a_float_one():
    big = np.zeros((4 * MAX_CASE_ELEMENTS,), dtype=np.int8)
    assert len(_argument(to_npy(big), ParamKind.INT8_ARRAY, "q", 1 << 26)) > big.nbytes
    with pytest.raises(PackageError, match="at most 2,000,000 elements"):
        _argument(to_npy(np.zeros(MAX_CASE_ELEMENTS + 1)), ParamKind.ARRAY, "x", 1 << 26)


def test_an_int8_array_argument_must_be_int8():
    with pytest.raises(PackageError, match="is of kind int8_array: it must be an int8 ndarray, got int64"):
        _argument(to_npy(np.zeros(3, dtype=np.int64)), ParamKind.INT8_ARRAY, "q", 1 << 20)


def test_custom_input_takes_int8_values_only_in_their_range():
    value = check_value(ParamKind.INT8_ARRAY, [[127, -127], [0, 3]], None)
    assert np.load(io.BytesIO(value)).dtype == np.int8
    with pytest.raises(BadLiteral, match="from -128 to 127"):
        check_value(ParamKind.INT8_ARRAY, [[128, 0]], None)
    with pytest.raises(BadLiteral, match="whole numbers"):
        check_value(ParamKind.INT8_ARRAY, [[1.5, 0]], None)
