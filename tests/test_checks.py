"""The trusted checks, against hostile or confused return values."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine.arrays import UnreadableArray, read_npy
from engine.grading import grade
from tests.helpers import one_case, spec

X = np.arange(6, dtype=np.float64).reshape(2, 3)


def run(code: str, sandbox, expected=None, hidden=False, **overrides):
    expected = X * 2 if expected is None else expected
    return grade(code, spec(**overrides), one_case(X, expected, hidden=hidden), sandbox)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("return (x * 2).tolist()", "wrong_type"),
        ("return float((x * 2).sum())", "wrong_type"),
        ("class A(np.ndarray): pass\n    return (x * 2).view(A)", "wrong_type"),
        ("return np.matrix(x * 2)", "wrong_type"),
        ("return (x * 2).astype(np.float32)", "wrong_dtype"),
        ("return (x * 2).astype('>f8')", "wrong_dtype"),
        ("return (x * 2).astype(object)", "wrong_dtype"),
        ("return np.float64(12.0) * np.ones(1)", "wrong_shape"),
        ("return (x * 2).T", "wrong_shape"),
        ("return np.full_like(x, np.nan)", "wrong_value"),
        ("return x * 2 + 1e-3", "wrong_value"),
        ("x *= 2\n    return x.copy()", "input_mutated"),
        ("return x * 2", "passed"),
    ],
)
def test_returned_value_gets_the_first_failing_check(body, status, process_sandbox):
    report = run(f"import numpy as np\ndef f(x):\n    {body}\n", process_sandbox)
    assert report.tests[0].status == status, report.tests[0].message


def test_broadcastable_scalar_fails_shape_before_values_are_compared(process_sandbox):
    report = run("import numpy as np\ndef f(x):\n    return np.zeros(())\n", process_sandbox, expected=np.zeros((2, 3)))
    assert report.tests[0].status == "wrong_shape"
    assert report.tests[0].message == "expected shape (2, 3), got ()"


def test_wrong_value_message_names_max_error_and_first_index(process_sandbox):
    report = run("def f(x):\n    y = x * 2\n    y[1, 2] += 0.5\n    return y\n", process_sandbox)
    message = report.tests[0].message
    assert "max absolute error 0.5" in message
    assert "first mismatch at index (1, 2): expected 10, got 10.5" in message
    assert report.tests[0].detail["first_mismatch"] == [1, 2]


def test_hidden_test_names_the_check_but_not_its_data(process_sandbox):
    report = run("def f(x):\n    y = x * 2\n    y[1, 2] += 0.5\n    return y\n", process_sandbox, hidden=True)
    test = report.tests[0]
    assert test.status == "wrong_value"
    assert "10" not in test.message and "(1, 2)" not in test.message
    assert test.detail == {} and test.stdout == ""


def test_runtime_error_traceback_is_trimmed_to_student_lines(process_sandbox):
    code = "import numpy as np\n\ndef helper(x):\n    return np.concatenate([x, x[None]])\n\ndef f(x):\n    return helper(x)\n"
    test = run(code, process_sandbox).tests[0]
    assert test.status == "runtime_error"
    assert test.message.startswith("ValueError:")
    assert [frame["line"] for frame in test.traceback] == [7, 4]
    assert all("numpy" not in frame["function"] for frame in test.traceback)


def test_syntax_error_is_a_compile_error_with_the_line(process_sandbox):
    report = run("import numpy as np\n\ndef f(x)\n    return x\n", process_sandbox)
    assert report.verdict == "compile_error"
    assert report.line == 3 and "line 3" in report.message


def test_missing_function_is_a_compile_error_naming_the_signature(process_sandbox):
    report = run("def g(x):\n    return x\n", process_sandbox)
    assert report.verdict == "compile_error"
    assert "define a function named f(x)" in report.message and "g" in report.message


def test_printed_forged_verdict_does_not_change_the_verdict(process_sandbox):
    code = (
        "import sys, os\ndef f(x):\n    print('ACCEPTED'); sys.stdout.write('{\"verdict\": \"accepted\"}')\n"
        "    os.write(1, b'accepted')\n    return x\n"
    )
    assert run(code, process_sandbox).verdict == "wrong_answer"


def test_crafted_npy_with_object_dtype_is_refused():
    buffer = io.BytesIO()
    np.save(buffer, np.array([1, "a"], dtype=object), allow_pickle=True)
    with pytest.raises(UnreadableArray, match="object"):
        read_npy(buffer.getvalue(), 1 << 20)


def test_npy_whose_header_lies_about_its_size_is_refused():
    buffer = io.BytesIO()
    np.save(buffer, np.zeros((2, 3)))
    data = buffer.getvalue().replace(b"(2, 3)", b"(9, 9)")
    with pytest.raises(UnreadableArray, match="does not match"):
        read_npy(data, 1 << 20)


@pytest.mark.parametrize(
    "array",
    [
        np.arange(6.0).reshape(2, 3),
        np.float64(3.5),
        np.arange(5),
        np.array([True, False]),
        np.asfortranarray(np.arange(12.0).reshape(3, 4)),
        np.zeros((0, 3)),
        np.array([1 + 2j]),
        np.arange(3, dtype=">f4"),
        np.array(["ab", "c"]),
        np.zeros(2, dtype=[("a", "<f8")]),
    ],
    ids=["float", "scalar", "int", "bool", "fortran", "empty", "complex", "big-endian", "str", "structured"],
)
def test_a_result_reads_back_as_the_array_it_was_writable_and_in_its_order(array):
    data = io.BytesIO()
    np.save(data, array)
    read = read_npy(data.getvalue(), 1 << 20)
    assert read.dtype == array.dtype and read.shape == np.shape(array) and np.array_equal(read, array)
    assert read.flags.writeable and read.flags.f_contiguous == np.asarray(array).flags.f_contiguous


def test_npy_whose_shape_wraps_around_in_64_bits_is_refused():
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"  # 2**64 elements: 0 in int64, and no data sent
    data = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
    with pytest.raises(UnreadableArray, match="does not match"):
        read_npy(data, 1 << 20)


def test_oversized_npy_is_refused_before_parsing():
    with pytest.raises(UnreadableArray, match="over the limit"):
        read_npy(b"\x93NUMPY" + b"\0" * 2000, 1000)


def test_hidden_runtime_error_does_not_echo_the_students_message(process_sandbox):
    code = "def f(x):\n    raise ValueError('leak ' + repr(x.tolist()))\n"
    test = run(code, process_sandbox, hidden=True).tests[0]
    assert test.status == "runtime_error"
    assert "leak" not in test.message and "raised ValueError;" in test.message
    assert "line 2" not in test.message and test.traceback == []


def test_hidden_wrong_type_does_not_echo_a_crafted_type_name(process_sandbox):
    code = "def f(x):\n    return type('secret_' + str(int(x.sum())), (), {})()\n"
    test = run(code, process_sandbox, hidden=True).tests[0]
    assert test.status == "wrong_type"
    assert "secret" not in test.message and "another type" in test.message
