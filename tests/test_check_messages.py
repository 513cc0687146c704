"""What a wrong value's message tells the student: digits that show the difference, and NaN advice that fits."""

from __future__ import annotations

import numpy as np

from engine.grading import grade
from engine.spec import Case
from tests.helpers import npy, one_case, spec

X = np.arange(6, dtype=np.float64).reshape(2, 3)


def first_message(code: str, cases: list[Case], sandbox, **overrides) -> str:
    report = grade(code, spec(**overrides), cases, sandbox)
    return report.tests[0].message


def softmax(x: np.ndarray) -> np.ndarray:
    shifted = np.exp(x - x.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def test_a_small_mismatch_prints_digits_that_differ_and_both_errors(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    return np.full((2, 3), -1.2247359)\n"
    message = first_message(code, one_case(X, np.full((2, 3), -1.2247449)), process_sandbox, rtol=1e-6)
    assert (
        "first mismatch at index (0, 0): expected -1.2247449, got -1.2247359 (abs error 9.0e-06, rel 7.3e-06)"
        in message
    )


def test_a_mismatch_against_zero_gives_no_relative_error(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    return np.full((2, 3), 0.5)\n"
    message = first_message(code, one_case(X, np.zeros((2, 3))), process_sandbox)
    assert message.endswith("expected 0, got 0.5 (abs error 5.0e-01)")


def test_nan_from_large_inputs_gets_the_overflow_advice(process_sandbox):
    x = X * 1000.0
    code = "import numpy as np\ndef f(x):\n    e = np.exp(x)\n    return e / e.sum(axis=-1, keepdims=True)\n"
    message = first_message(code, one_case(x, softmax(x)), process_sandbox)
    assert "your result has NaN where the expected value is not" in message
    assert "the inputs reach 5e+03 in magnitude, so exp() overflows" in message and "subtract the maximum" in message


def test_nan_behind_a_minus_inf_mask_points_at_the_mask_not_at_overflow(process_sandbox):
    scores = np.array([[0.5, -0.2, 0.1], [0.3, 0.0, -0.4]])
    mask = np.array([[0.0, 0.0, -np.inf], [0.0, 0.0, -np.inf]])
    # Subtracts the maximum, but over the queries: the masked column's maximum is -inf.
    code = (
        "import numpy as np\ndef f(x, mask):\n    s = x + mask\n    e = np.exp(s - s.max(axis=0, keepdims=True))\n"
        "    return e / e.sum(axis=-1, keepdims=True)\n"
    )
    cases = [Case("masked", False, {"x": npy(scores), "mask": npy(mask)}, npy(softmax(scores + mask)))]
    message = first_message(code, cases, process_sandbox, params=["x", "mask"])
    assert "your result has NaN" in message
    assert "`mask` holds -inf" in message and "take the maximum over the last axis" in message
    assert "overflow" not in message


def test_nan_with_nothing_pointing_at_a_cause_gets_no_generic_advice(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    return np.full_like(x, np.nan)\n"
    message = first_message(code, one_case(X, X * 2), process_sandbox)
    assert message.startswith("your result has NaN where the expected value is not")
    assert "subtract the maximum" not in message and "-inf" not in message


def test_a_wrong_dtype_on_a_visible_test_keeps_the_students_array(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    return (x * 2).astype(np.float32)\n"
    test = grade(code, spec(), one_case(X, X * 2), process_sandbox).tests[0]
    assert test.status == "wrong_dtype" and "actual_npy" in test.detail


def test_an_input_mutated_on_a_visible_test_keeps_the_students_array(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    out = x * 2\n    x += 1\n    return out\n"
    test = grade(code, spec(), one_case(X, X * 2), process_sandbox).tests[0]
    assert test.status == "input_mutated" and "actual_npy" in test.detail


def test_a_hidden_wrong_dtype_keeps_nothing(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    return (x * 2).astype(np.float32)\n"
    test = grade(code, spec(), one_case(X, X * 2, hidden=True), process_sandbox).tests[0]
    assert test.status == "wrong_dtype" and test.detail == {}
