"""Custom inputs for a Run: every literal a student might type wrong is refused with a message naming why."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine.custom_input import (
    MAX_ELEMENTS,
    MAX_LITERAL_CHARS,
    BadInputs,
    expectations,
    literal_of,
    parse_literal,
    validate_inputs,
)
from engine.spec import ProblemSpec

SPEC = ProblemSpec("layer_norm", ["x", "gamma", "beta", "eps"], 2.0, 512, 1e-7, 1e-8, kinds={"eps": "float"})
EXAMPLE = expectations({"x": np.zeros((2, 3)), "gamma": np.ones(3), "beta": np.zeros(3), "eps": 1e-5})
GOOD = {"x": "[[1.0, 2], [3, 4]]", "gamma": "[1, 1]", "beta": "(0, 0)", "eps": "1e-5"}


def refused(**changes) -> dict[str, str]:
    texts = {k: v for k, v in (GOOD | changes).items() if v is not None}
    with pytest.raises(BadInputs) as caught:
        validate_inputs(SPEC, texts, EXAMPLE)
    return caught.value.errors


def test_good_literals_become_float64_arrays_and_a_plain_float():
    inputs = validate_inputs(SPEC, GOOD | {"x": "np.array([[1.0, 2], [3, 4]])"}, EXAMPLE)
    x = np.load(io.BytesIO(inputs["x"]))
    assert x.dtype == np.float64 and x.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert inputs["eps"] == 1e-5 and type(inputs["eps"]) is float


def test_malformed_literal_is_refused_with_where():
    assert "not a valid literal" in refused(x="[[1, 2], [3, 4]")["x"]


def test_a_call_other_than_np_array_is_refused_and_never_run():
    assert "calls __import__" in refused(x="__import__('os').system('true')")["x"]


def test_names_are_not_numbers():
    assert "not a number" in refused(gamma="[a, b]")["gamma"]


def test_ragged_rows_are_refused():
    assert "ragged" in refused(x="[[1, 2], [3]]")["x"]


def test_wrong_number_of_axes_is_refused():
    assert "must have 2 axes" in refused(x="[1, 2, 3]")["x"]


def test_a_scalar_for_an_array_is_refused():
    assert "must be an array" in refused(gamma="1.0")["gamma"]


def test_a_list_for_a_float_parameter_is_the_wrong_kind():
    assert "single number, not a list" in refused(eps="[1e-5]")["eps"]


def test_booleans_in_an_array_are_the_wrong_kind():
    assert "not True or False" in refused(beta="[True, False]")["beta"]


def test_a_float_for_an_int_parameter_is_the_wrong_kind():
    spec = ProblemSpec("split_heads", ["x", "n_heads"], 2.0, 512, 0.0, 0.0, kinds={"n_heads": "int"})
    with pytest.raises(BadInputs) as caught:
        validate_inputs(spec, {"x": "[[[1, 2]]]", "n_heads": "2.0"})
    assert "must be an integer" in caught.value.errors["n_heads"]


def test_non_finite_values_are_refused_where_the_example_has_none():
    assert "must be finite" in refused(x="[[nan, 1], [2, 3]]")["x"]
    assert "finite" in refused(eps="inf")["eps"]


def test_non_finite_values_are_accepted_where_the_example_has_them():
    example = EXAMPLE | expectations({"x": np.array([[np.inf, 0.0]])})
    validate_inputs(SPEC, GOOD | {"x": "[[-np.inf, 1], [2, 3]]"}, example)


def test_too_many_characters_is_refused():
    assert f"{MAX_LITERAL_CHARS:,}" in refused(x=" " * (MAX_LITERAL_CHARS + 1) + "[[1]]")["x"]


def test_too_many_numbers_is_refused():
    assert f"{MAX_ELEMENTS:,} numbers" in refused(gamma="[" + ", ".join(["1"] * (MAX_ELEMENTS + 1)) + "]")["gamma"]


def test_deep_nesting_is_refused():
    assert "levels of brackets" in refused(x="[" * 50 + "1" + "]" * 50)["x"]


def test_an_unknown_parameter_is_refused():
    assert "not a parameter of layer_norm(x, gamma, beta, eps)" in refused(bias="[1]")["bias"]


def test_a_missing_parameter_is_refused():
    errors = refused(eps=None)
    assert list(errors) == ["eps"] and "missing" in errors["eps"]


def test_an_empty_field_is_refused():
    assert refused(beta="  ")["beta"] == "is empty"


def test_example_literals_read_back_as_the_same_values():
    array = np.array([[1.0, 2.5], [-3e-12, 4.0]])
    assert np.array_equal(np.array(parse_literal(literal_of(array))), array)
    assert parse_literal(literal_of(1e-5)) == 1e-5
