"""Outputs that are not float64: token ids and indices declared int64, and int64 arrays as inputs.

Two small packages, written here: ``append_argmax(logits, prompt_ids)`` takes token ids (kind ``int_array``)
and returns them with each row's most likely next token appended, an int64 array declared with
``[function.returns] dtype = "int64"``; ``top_two(x)`` returns the tuple (values, indices) with
``dtypes = { indices = "int64" }``. Integers are compared exactly; a float64 where int64 is declared is a
wrong dtype; misconceptions, signatures, probes and the result page handle them.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from django.template.loader import render_to_string

from engine import members
from engine.arrays import to_npy
from engine.checks import DIAGNOSABLE, KnownWrong, Tolerance, diagnose
from engine.custom_input import BadInputs, validate_inputs
from engine.events import TestEvent
from engine.gate import run_gate
from engine.grading import grade
from engine.package import PackageError, load_package
from engine.signatures import signature
from engine.verdicts import TestStatus, Verdict
from sandbox.protocol import Outcome

COMMON = """difficulty = "easy"

[limits]
time_limit_s = 2.0
memory_mb = 256

[checking]
rtol = 1e-9
atol = 1e-12

[tests]
seed = 5
"""

APPEND = {
    "problem.toml": """slug = "append_argmax"
title = "Append the most likely token"
"""
    + COMMON
    + """
[function]
name = "append_argmax"
params = ["logits", "prompt_ids"]

[function.kinds]
prompt_ids = "int_array"

[function.returns]
dtype = "int64"

[[probes]]
name = "prompt_kept"
check = "unchanged"
cases = ["probe_a", "probe_b"]
region = "[:, :3]"
message = "changing only the logits changed the prompt's tokens in the result"

[[wrong]]
file = "wrong/float_ids.py"
fails_with = "wrong_dtype"
name = "Token ids as floats"
explanation = "np.concatenate with a float array gives floats; ids stay int64."

[[wrong]]
file = "wrong/argmin.py"
fails_with = "wrong_value"
name = "Least likely token"
explanation = "argmin picks the least likely token."

[[wrong]]
file = "wrong/overwrites_prompt.py"
fails_with = "wrong_value"
name = "Prompt overwritten"
explanation = "The prompt's tokens stay as they were."
probes = ["prompt_kept"]
""",
    "generator.py": """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False, "args": {
        "logits": np.array([[0.0, 1.0, 3.0, 2.0], [5.0, 1.0, 0.0, 0.0]]),
        "prompt_ids": np.array([[1, 0, 3], [2, 2, 1]])}}
    for i in range(3):
        yield {"name": f"random_{i}", "hidden": True, "args": {
            "logits": rng.standard_normal((3, 6)), "prompt_ids": rng.integers(0, 6, size=(3, 3))}}
    ids = rng.integers(0, 6, size=(2, 3))
    for name in ("probe_a", "probe_b"):
        yield {"name": name, "probe": True, "args": {"logits": rng.standard_normal((2, 6)), "prompt_ids": ids}}
""",
    "solution.py": """import numpy as np

def append_argmax(logits, prompt_ids):
    return np.concatenate([prompt_ids, logits.argmax(axis=-1)[:, None]], axis=1)
""",
    "starter.py": """def append_argmax(logits, prompt_ids):
    raise NotImplementedError
""",
    "wrong/float_ids.py": """import numpy as np

def append_argmax(logits, prompt_ids):
    return np.concatenate([prompt_ids, logits.argmax(axis=-1)[:, None].astype(float)], axis=1)
""",
    "wrong/argmin.py": """import numpy as np

def append_argmax(logits, prompt_ids):
    return np.concatenate([prompt_ids, logits.argmin(axis=-1)[:, None]], axis=1)
""",
    "wrong/overwrites_prompt.py": """import numpy as np

def append_argmax(logits, prompt_ids):
    best = logits.argmax(axis=-1)[:, None]
    return np.concatenate([np.broadcast_to(best, prompt_ids.shape), best], axis=1)
""",
    "statement.md": "Append each row's argmax to its prompt.\n",
}

TOP_TWO = {
    "problem.toml": """slug = "top_two"
title = "The two largest"
"""
    + COMMON
    + """
[function]
name = "top_two"
params = ["x"]

[function.returns]
kind = "tuple"
names = ["values", "indices"]
dtypes = { indices = "int64" }

[[wrong]]
file = "wrong/ascending.py"
fails_with = "wrong_value"
name = "Ascending order"
explanation = "The largest comes first."
""",
    "generator.py": """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False, "args": {"x": np.array([[1.0, 4.0, 2.0], [0.0, -1.0, 3.0]])}}
    for i in range(2):
        yield {"name": f"random_{i}", "hidden": True, "args": {"x": rng.standard_normal((4, 5))}}
""",
    "solution.py": """import numpy as np

def top_two(x):
    order = np.argsort(-x, axis=-1, kind="stable")[:, :2]
    return np.take_along_axis(x, order, axis=-1), order
""",
    "starter.py": """def top_two(x):
    raise NotImplementedError
""",
    "wrong/ascending.py": """import numpy as np

def top_two(x):
    order = np.argsort(-x, axis=-1, kind="stable")[:, 1::-1]
    return np.take_along_axis(x, order, axis=-1), order
""",
    "statement.md": "The two largest entries of each row and where they are.\n",
}


def write(root: Path, files: dict[str, str]) -> Path:
    folder = root / files["problem.toml"].split('"')[1]
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.fixture(scope="module")
def append(tmp_path_factory, process_sandbox):
    package = load_package(write(tmp_path_factory.mktemp("append"), APPEND))
    return package, run_gate(package, process_sandbox)


@pytest.fixture(scope="module")
def top_two(tmp_path_factory, process_sandbox):
    package = load_package(write(tmp_path_factory.mktemp("top_two"), TOP_TWO))
    return package, run_gate(package, process_sandbox)


def graded(package_and_outcome, code: str, sandbox):
    package, outcome = package_and_outcome
    return grade(code, package.spec(), outcome.cases, sandbox)


def test_manifest_declares_int64_outputs_and_int_array_inputs(append, top_two):
    spec = append[0].problem
    assert spec.returns is None and spec.dtypes == {"": "int64"} and spec.kinds == {"prompt_ids": "int_array"}
    assert spec.output_dtype() == "int64" and type(spec).from_dict(spec.as_dict()) == spec
    spec = top_two[0].problem
    assert spec.dtypes == {"indices": "int64"} and spec.output_dtype("values") == "float64"
    assert type(spec).from_dict(spec.as_dict()) == spec


@pytest.mark.parametrize(
    ("returns", "message"),
    [
        ('dtype = "int32"', "function.returns.dtype must be one of float64, int64, int8, got 'int32'"),
        ('names = ["a"]', "function.returns.names needs kind"),
        ('kind = "tuple"\nnames = ["a", "b"]\ndtypes = { c = "int64" }', "names 'c', which is not one of the outputs"),
        ('kind = "tuple"\nnames = ["a", "b"]\ndtype = "int64"', "is for one array; name each output's dtype"),
    ],
)
def test_manifest_refuses_a_bad_dtype_declaration(tmp_path, returns, message):
    files = dict(APPEND)
    files["problem.toml"] = APPEND["problem.toml"].replace('dtype = "int64"', returns)
    with pytest.raises(PackageError, match=message.replace("(", r"\(")):
        load_package(write(tmp_path, files))


def test_gate_passes_with_integer_outputs_known_wrong_solutions_and_a_probe(append, top_two):
    for _, outcome in (append, top_two):
        assert outcome.passed, outcome.as_list()
    assert "the output int64" in append[1].check("float64").detail
    assert "indices int64" in top_two[1].check("float64").detail


def test_correct_solutions_are_accepted(append, top_two, process_sandbox):
    assert graded(append, APPEND["solution.py"], process_sandbox).verdict == Verdict.ACCEPTED
    assert graded(top_two, TOP_TWO["solution.py"], process_sandbox).verdict == Verdict.ACCEPTED


def test_float_ids_are_a_wrong_dtype_named_as_a_mistake(append, process_sandbox):
    report = graded(append, APPEND["wrong/float_ids.py"], process_sandbox)
    example, hidden = report.tests[0], next(t for t in report.tests if t.hidden)
    assert example.status == TestStatus.WRONG_DTYPE
    assert example.message.startswith("expected an int64 array of shape (2, 4), got float64 of shape (2, 4)")
    assert "return them with .astype(np.int64)" in example.message
    assert hidden.message.startswith("expected an int64 array, got float64")
    assert hidden.misconception["name"] == "Token ids as floats"


def test_int32_ids_are_a_wrong_dtype_too(append, process_sandbox):
    code = APPEND["solution.py"].replace("axis=1)", "axis=1).astype(np.int32)")
    assert graded(append, code, process_sandbox).tests[0].message.startswith("expected an int64 array of shape")


def test_integers_are_compared_exactly_and_the_first_difference_named(append, process_sandbox):
    report = graded(append, APPEND["wrong/argmin.py"], process_sandbox)
    example, hidden = report.tests[0], next(t for t in report.tests if t.hidden)
    assert example.message == (
        "integer values differ at 2 of 8 positions (compared exactly); first mismatch at "
        "index (0, 3): expected 2, got 0"
    )
    assert hidden.message.startswith("integer values differ from the expected ones at some positions")
    assert hidden.misconception["name"] == "Least likely token"


def test_probe_reads_integer_outputs(append, process_sandbox):
    report = graded(append, APPEND["wrong/overwrites_prompt.py"], process_sandbox)
    assert report.verdict == Verdict.WRONG_ANSWER
    assert [p["name"] for p in report.properties] == ["prompt_kept"]


def test_member_declared_int64_is_checked_by_name(top_two, process_sandbox):
    code = TOP_TWO["solution.py"].replace("), order", "), order.astype(float)")
    message = graded(top_two, code, process_sandbox).tests[0].message
    assert message.startswith("indices: expected an int64 array of shape (2, 2), got float64")
    report = graded(top_two, TOP_TWO["wrong/ascending.py"], process_sandbox)
    assert report.tests[0].message.startswith("values: values differ")
    assert "(also wrong: indices)" in report.tests[0].message
    assert all(t.misconception.get("name") == "Ascending order" for t in report.tests if t.hidden)


def test_generator_must_give_int64_to_an_int_array(tmp_path, process_sandbox):
    files = dict(APPEND)
    files["generator.py"] = APPEND["generator.py"].replace(
        '"prompt_ids": np.array([[1, 0, 3], [2, 2, 1]])', '"prompt_ids": np.array([[1.0, 0, 3], [2, 2, 1]])'
    )
    outcome = run_gate(load_package(write(tmp_path, files)), process_sandbox)
    assert outcome.check("generator").passed is False
    assert "is of kind int_array: it must be an int64 ndarray, got float64" in outcome.check("generator").detail


def test_reference_returning_floats_where_int64_is_declared_fails_the_gate(tmp_path, process_sandbox):
    files = dict(APPEND)
    files["solution.py"] = APPEND["wrong/float_ids.py"]
    outcome = run_gate(load_package(write(tmp_path, files)), process_sandbox)
    assert outcome.check("float64").passed is False
    assert "must return an int64 ndarray on example, got float64" in outcome.check("float64").detail


def _event(array: np.ndarray) -> TestEvent:
    return TestEvent(Outcome.RETURNED, 1.0, "", output=to_npy(array), dtype=array.dtype.str, shape=array.shape)


def test_signatures_tell_integer_mistakes_apart():
    expected = np.array([[3, 1, 4, 1, 5]])
    off_by_one, other = expected + np.array([[0, 0, 1, 0, 0]]), np.array([[3, 1, 0, 1, 5]])
    sign = lambda a: signature(TestStatus.WRONG_VALUE, actual=a, expected=expected, rtol=1e-9, atol=1e-12)  # noqa: E731
    assert sign(off_by_one) == sign(off_by_one.copy()) and sign(off_by_one) != sign(other)
    assert sign(expected.astype(float)) != sign(expected)


def test_a_memory_or_time_kill_names_only_the_mistake_killed_the_same_way_on_that_test():
    # Issue 41: such a run returns nothing to compare, so its status on the test is the whole comparison.
    known = tuple(KnownWrong("m", "", "", status, to_npy(np.zeros(2, np.int64))) for status in TestStatus)
    event = _event(np.zeros(2, np.int64))
    for status in (TestStatus.MEMORY_LIMIT_EXCEEDED, TestStatus.TIME_LIMIT_EXCEEDED):
        assert status in DIAGNOSABLE
        assert [k.status for k in diagnose(event, status, known, Tolerance(0, 0), 1 << 20)] == [status]
    assert [k.status for k in diagnose(event, TestStatus.WRONG_VALUE, known, Tolerance(0, 0), 1 << 20)] == [
        TestStatus.WRONG_VALUE
    ]


def test_custom_input_takes_whole_numbers_for_an_int_array(append):
    spec = append[0].problem
    inputs = validate_inputs(spec, {"logits": "[[0.5, 1.0]]", "prompt_ids": "[[1, 0]]"})
    assert np.load(io.BytesIO(inputs["prompt_ids"])).dtype == np.int64
    with pytest.raises(BadInputs) as refused:
        validate_inputs(spec, {"logits": "[[0.5, 1.0]]", "prompt_ids": "[[1.0, 0]]"})
    assert "must hold whole numbers" in refused.value.errors["prompt_ids"]


def test_result_page_shows_integer_arrays_a_difference_picture_and_an_int64_chip(append, process_sandbox):
    from judge.display.results import check_labels, shown_row

    package, outcome = append
    report = graded(append, APPEND["wrong/argmin.py"], process_sandbox)
    example = next(c for c in outcome.cases if c.name == "example")
    inputs = {name: np.load(io.BytesIO(v)) for name, v in example.inputs.items()}
    row = shown_row(
        report.tests[0].as_dict(),
        {"example": (inputs, members.load(example.expected))},
        check_labels(package.problem.as_dict()),
    )
    html = render_to_string("submissions/_test_row.html", {"row": row})
    assert "integer values differ at 2 of 8 positions" in html and "<svg" in html
    assert "2 of 8 integers differ (compared exactly)" in html and "max absolute error" not in html
    # A prompt and its appended id: drawn as a decoded sequence (tests/test_decoded_tokens_picture.py), not as the
    # generic token strip.
    assert row.view is None and "sequence 0: first differs at token 3" in html
    assert row.expected.dtype == "int64" and row.actual.text == "[[1, 0, 3, 0],\n [2, 2, 1, 2]]"
    assert ("values", "failed") in row.checks and ("int64", "passed") in row.checks
    mixed = {"returns": {"kind": "tuple", "names": ["values", "indices"]}, "dtypes": {"indices": "int64"}}
    assert check_labels(mixed)["dtype"] == "dtypes" and check_labels({})["dtype"] == "float64"


@pytest.mark.docker
def test_integer_outputs_come_back_from_a_docker_sandbox(append, docker_sandbox):
    report = graded(append, APPEND["wrong/float_ids.py"], docker_sandbox)
    assert report.tests[0].status == TestStatus.WRONG_DTYPE
    assert graded(append, APPEND["solution.py"], docker_sandbox).verdict == Verdict.ACCEPTED
