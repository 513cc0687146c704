"""A function may return a tuple or a dict of named arrays, and take a dict of arrays (kind ``params``).

Two small packages, written here: ``outer_grads(x, w, g)`` returns the tuple (grad_x, grad_weight) of
y = x @ w, and ``scale_grads(grads, factor)`` takes a dict of arrays and returns a dict with the same keys.
Every member is checked like a single output and reported by name; the container is checked first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from django.template.loader import render_to_string

from engine import members
from engine.arrays import to_npy
from engine.gate import run_gate
from engine.grading import grade
from engine.package import PackageError, load_package
from engine.testset import build_cases, check_params
from engine.verdicts import TestStatus, Verdict

COMMON = """difficulty = "easy"

[limits]
time_limit_s = 2.0
memory_mb = 256

[tests]
seed = 11
"""

OUTER = {
    "problem.toml": """slug = "outer_grads"
title = "Gradients of a product"
"""
    + COMMON
    + """
[function]
name = "outer_grads"
params = ["x", "w", "g"]

[function.returns]
kind = "tuple"
names = ["grad_x", "grad_weight"]

[checking]
rtol = 1e-9
atol = 1e-12
fd_rtol = 1e-6
fd_atol = 1e-8

[[probes]]
name = "rows_independent"
check = "unchanged"
member = "grad_x"
cases = ["probe_a", "probe_b"]
region = "[0]"
message = "changing the second row's gradient changed the first row of grad_x"

[[wrong]]
file = "wrong/transposed_weight.py"
fails_with = "wrong_shape"
name = "grad_weight transposed"
explanation = "x^T g has the shape of the weight; g^T x is its transpose."

[[wrong]]
file = "wrong/summed_rows.py"
fails_with = "wrong_value"
name = "Summed the rows of g"
explanation = "Each row of x gets its own row of g."
probes = ["rows_independent"]
""",
    "generator.py": """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False, "fd": True, "args": {
        "x": rng.standard_normal((2, 4)), "w": rng.standard_normal((4, 3)), "g": rng.standard_normal((2, 3))}}
    for i in range(3):
        yield {"name": f"random_{i}", "hidden": True, "fd": True, "args": {
            "x": rng.standard_normal((3, 4)), "w": rng.standard_normal((4, 3)), "g": rng.standard_normal((3, 3))}}
    x, w, g = rng.standard_normal((2, 4)), rng.standard_normal((4, 3)), rng.standard_normal((2, 3))
    changed = g.copy()
    changed[1] += 1.0
    yield {"name": "probe_a", "probe": True, "args": {"x": x, "w": w, "g": g}}
    yield {"name": "probe_b", "probe": True, "args": {"x": x, "w": w, "g": changed}}
""",
    "solution.py": "def outer_grads(x, w, g):\n    return g @ w.T, x.T @ g\n",
    "finite_difference.py": """import numpy as np

def _loss(x, w, g):
    return float(np.sum(g * (x @ w)))

def _numeric(f, a):
    grad = np.zeros_like(a)
    for index in np.ndindex(a.shape):
        step = np.zeros_like(a)
        step[index] = 1e-5
        grad[index] = (f(a + step) - f(a - step)) / 2e-5
    return grad

def outer_grads(x, w, g):
    return _numeric(lambda a: _loss(a, w, g), x), _numeric(lambda a: _loss(x, a, g), w)
""",
    "starter.py": "def outer_grads(x, w, g):\n    raise NotImplementedError\n",
    "statement.md": "Return (g w^T, x^T g).",
    "wrong/transposed_weight.py": "def outer_grads(x, w, g):\n    return g @ w.T, g.T @ x\n",
    "wrong/summed_rows.py": "import numpy as np\n\ndef outer_grads(x, w, g):\n"
    "    return np.broadcast_to(g.sum(axis=0) @ w.T, (g.shape[0], w.shape[0])).copy(), x.T @ g\n",
}

SCALE = {
    "problem.toml": """slug = "scale_grads"
title = "Scale every gradient"
"""
    + COMMON
    + """
[function]
name = "scale_grads"
params = ["grads", "factor"]

[function.kinds]
grads = "params"
factor = "float"

[function.keys.grads]
w = 2
b = 1

[function.returns]
kind = "dict"
names = ["w", "b"]

[checking]
rtol = 1e-12
atol = 1e-12

[[wrong]]
file = "wrong/forgot_bias.py"
fails_with = "wrong_value"
name = "Left the bias unscaled"
explanation = "Every array of the dict is scaled, the bias too."
""",
    "generator.py": """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False,
           "args": {"grads": {"w": rng.standard_normal((2, 3)), "b": rng.standard_normal(3)}, "factor": 0.5}}
    for i in range(2):
        yield {"name": f"random_{i}", "hidden": True,
               "args": {"grads": {"w": rng.standard_normal((3, 2)), "b": rng.standard_normal(2)}, "factor": 2.0}}
""",
    "solution.py": "def scale_grads(grads, factor):\n    return {name: value * factor for name, value in grads.items()}\n",
    "starter.py": "def scale_grads(grads, factor):\n    raise NotImplementedError\n",
    "statement.md": "Scale each array.",
    "wrong/forgot_bias.py": "def scale_grads(grads, factor):\n    return {'w': grads['w'] * factor, 'b': grads['b'] * 1.0}\n",
}


def write(root: Path, files: dict[str, str]) -> Path:
    folder = root / files["problem.toml"].split('"')[1]
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.fixture(scope="module")
def outer(tmp_path_factory, process_sandbox):
    package = load_package(write(tmp_path_factory.mktemp("outer"), OUTER))
    return package, run_gate(package, process_sandbox)


@pytest.fixture(scope="module")
def scale(tmp_path_factory, process_sandbox):
    package = load_package(write(tmp_path_factory.mktemp("scale"), SCALE))
    return package, build_cases(package, process_sandbox)


def graded(package_and_cases, code: str, sandbox, solved=None):
    package, cases = package_and_cases
    cases = cases.cases if hasattr(cases, "cases") else cases
    return grade(code, package.spec(), cases, sandbox, solved)


def first_failure(report):
    return next(t for t in report.tests if t.status != TestStatus.PASSED)


def test_manifest_declares_tuple_and_params(outer, scale):
    assert outer[0].problem.returns == members.Returns("tuple", ("grad_x", "grad_weight"))
    spec = scale[0].problem
    assert spec.returns.kind == "dict" and spec.kinds["grads"] == "params" and spec.keys == {"grads": {"w": 2, "b": 1}}
    assert type(spec).from_dict(spec.as_dict()) == spec


def test_gate_passes_with_members_checked_against_finite_differences(outer):
    _, outcome = outer
    assert outcome.passed, outcome.as_list()
    assert "4 tests also checked against a finite-difference estimate" in outcome.check("fd").detail
    assert outcome.check("probes").detail.count("ok") == 2


def test_correct_tuple_and_dict_are_accepted(outer, scale, process_sandbox):
    assert graded(outer, OUTER["solution.py"], process_sandbox).verdict == Verdict.ACCEPTED
    assert graded(scale, SCALE["solution.py"], process_sandbox).verdict == Verdict.ACCEPTED


def test_member_with_wrong_shape_is_reported_by_name(outer, process_sandbox):
    report = graded(outer, OUTER["wrong/transposed_weight.py"], process_sandbox)
    example = report.tests[0]
    assert report.verdict == Verdict.WRONG_ANSWER and example.status == TestStatus.WRONG_SHAPE
    assert example.message.startswith("grad_weight: expected shape (4, 3), got (3, 4)")
    hidden = next(t for t in report.tests if t.hidden)
    assert hidden.message.startswith("grad_weight: ") and hidden.misconception["name"] == "grad_weight transposed"


def test_member_wrong_value_names_misconception_and_probe(outer, process_sandbox):
    report = graded(outer, OUTER["wrong/summed_rows.py"], process_sandbox)
    failure = first_failure(report)
    assert failure.status == TestStatus.WRONG_VALUE and failure.message.startswith("grad_x: values differ")
    assert all(t.misconception.get("name") == "Summed the rows of g" for t in report.tests if t.hidden)
    assert [p["name"] for p in report.properties] == ["rows_independent"]


def test_gradient_member_checked_against_finite_difference(outer, process_sandbox):
    # A reference-equal first member and a second one off by 1e-6: beyond rtol, and the estimate disagrees too.
    code = "def outer_grads(x, w, g):\n    return g @ w.T, x.T @ g * (1 + 1e-5)\n"
    failure = first_failure(graded(outer, code, process_sandbox))
    assert failure.message.startswith("grad_weight: values differ")
    assert "grad_weight: your gradient disagrees with a finite-difference estimate" in failure.message


def test_tuple_returned_where_dict_declared(scale, process_sandbox):
    code = "def scale_grads(grads, factor):\n    return grads['w'] * factor, grads['b'] * factor\n"
    report = graded(scale, code, process_sandbox)
    assert report.verdict == Verdict.WRONG_ANSWER and report.tests[0].status == TestStatus.WRONG_TYPE
    assert report.tests[0].message == (
        "expected a dict with the keys 'w', 'b', got a tuple; return {'w': ..., 'b': ..., ...}"
    )


def test_dict_returned_where_tuple_declared_and_single_array(outer, process_sandbox):
    as_dict = graded(
        outer, "def outer_grads(x, w, g):\n    return {'grad_x': g @ w.T, 'grad_weight': x.T @ g}\n", process_sandbox
    )
    assert as_dict.tests[0].message.startswith(
        "expected a tuple of 2 arrays (grad_x, grad_weight), got a dict; return grad_x, grad_weight"
    )
    single = graded(outer, "def outer_grads(x, w, g):\n    return g @ w.T\n", process_sandbox)
    assert single.tests[0].status == TestStatus.WRONG_TYPE
    assert single.tests[0].message.startswith("expected a tuple of 2 arrays (grad_x, grad_weight), got a single array")
    short = graded(outer, "def outer_grads(x, w, g):\n    return (g @ w.T,)\n", process_sandbox)
    assert short.tests[0].message == "expected a tuple of 2 arrays (grad_x, grad_weight), got a tuple of 1"


def test_missing_key(scale, process_sandbox):
    report = graded(scale, "def scale_grads(grads, factor):\n    return {'w': grads['w'] * factor}\n", process_sandbox)
    assert report.verdict == Verdict.WRONG_ANSWER and report.tests[0].status == TestStatus.WRONG_TYPE
    assert report.tests[0].message == "the returned dict lacks the key 'b' (expected exactly 'w', 'b')"


def test_extra_key_is_named_on_examples_only(scale, process_sandbox):
    code = (
        "def scale_grads(grads, factor):\n"
        "    return {'w': grads['w'] * factor, 'b': grads['b'] * factor, 'secret_3': grads['b']}\n"
    )
    report = graded(scale, code, process_sandbox)
    assert report.tests[0].message == (
        "the returned dict has a key that is not expected 'secret_3' (expected exactly 'w', 'b')"
    )
    hidden = next(t for t in report.tests if t.hidden)
    assert hidden.status == TestStatus.WRONG_TYPE and "secret_3" not in hidden.message


def test_wrong_member_dtype(scale, process_sandbox):
    code = (
        "import numpy as np\n\ndef scale_grads(grads, factor):\n"
        "    return {'w': grads['w'] * factor, 'b': (grads['b'] * factor).astype(np.float32)}\n"
    )
    report = graded(scale, code, process_sandbox)
    assert report.verdict == Verdict.WRONG_ANSWER and report.tests[0].status == TestStatus.WRONG_DTYPE
    assert report.tests[0].message == "b: expected a float64 array of shape (3,), got float32 of shape (3,)"


def test_member_that_is_not_an_array(scale, process_sandbox):
    code = "def scale_grads(grads, factor):\n    return {'w': grads['w'] * factor, 'b': list(grads['b'] * factor)}\n"
    message = graded(scale, code, process_sandbox).tests[0].message
    assert message.startswith("b: expected a numpy.ndarray, got list")


def test_misconception_on_one_member_of_a_dict(scale, process_sandbox):
    report = graded(scale, SCALE["wrong/forgot_bias.py"], process_sandbox)
    hidden = [t for t in report.tests if t.hidden]
    assert all(t.message.startswith("b: values differ") for t in hidden)


def test_params_modified_in_place_names_the_key(scale, process_sandbox):
    code = (
        "def scale_grads(grads, factor):\n    grads['w'] *= factor\n"
        "    return {'w': grads['w'].copy(), 'b': grads['b'] * factor}\n"
    )
    report = graded(scale, code, process_sandbox)
    assert report.tests[0].status == TestStatus.INPUT_MUTATED
    assert report.tests[0].message.startswith('your function modified its input `grads["w"]` in place')


def test_builds_on_a_solved_function_returning_a_tuple(scale, process_sandbox):
    helper = "def halves(a, b):\n    return a * 0.5, b * 0.5\n"
    code = (
        "from solved import halves\n\ndef scale_grads(grads, factor):\n"
        "    w, b = halves(grads['w'], grads['b'])\n    return {'w': w * 2 * factor, 'b': b * 2 * factor}\n"
    )
    assert graded(scale, code, process_sandbox, {"halves": helper}).verdict == Verdict.ACCEPTED


def npy(array) -> bytes:
    return to_npy(np.asarray(array))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"w": npy(np.zeros((2, 2)))}, "must have exactly the keys ['w', 'b']; missing ['b']"),
        ({"w": npy(np.zeros((2, 2))), "b": npy(np.zeros(2)), "c": npy(np.zeros(2))}, "not declared ['c']"),
        (
            {"w": npy(np.zeros((2, 2), dtype=np.int64)), "b": npy(np.zeros(2))},
            "['w'] must be a float64 array, got int64",
        ),
        ({"w": npy(np.zeros(2)), "b": npy(np.zeros(2))}, "['w'] must have 2 axes, got shape (2,)"),
        ({"w": npy(np.zeros((2, 2))), "b": npy([0.0, np.nan])}, "['b'] must be finite"),
        ({"w": npy(np.zeros((1500, 1500))), "b": npy(np.zeros(2))}, "holds 2,250,002 elements"),
        ([npy(np.zeros(2))], "must be a dict from names to arrays, got list"),
    ],
)
def test_params_input_is_validated(value, message):
    with pytest.raises(
        PackageError,
        match=r"argument 'grads'.*"
        + message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(").replace(")", r"\)"),
    ):
        check_params(value, {"w": 2, "b": 1}, "case 0 (example): argument 'grads'", 1 << 26)


def test_generator_with_an_undeclared_key_fails_the_gate(tmp_path, process_sandbox):
    files = dict(SCALE)
    files["generator.py"] = SCALE["generator.py"].replace(
        '"b": rng.standard_normal(3)}', '"bias": rng.standard_normal(3)}'
    )
    outcome = run_gate(load_package(write(tmp_path, files)), process_sandbox)
    assert outcome.check("generator").passed is False
    assert (
        "argument 'grads' must have exactly the keys ['w', 'b']; missing ['b']; not declared ['bias']"
        in outcome.check("generator").detail
    )


def test_manifest_refuses_params_without_keys(tmp_path):
    files = dict(SCALE)
    files["problem.toml"] = SCALE["problem.toml"].replace("[function.keys.grads]\nw = 2\nb = 1\n", "")
    with pytest.raises(PackageError, match=r"function.keys.grads is missing"):
        load_package(write(tmp_path, files))


def test_result_page_names_the_member_and_shows_its_arrays(outer, process_sandbox):
    from judge.display.results import shown_row

    _package, outcome = outer
    report = graded(outer, "def outer_grads(x, w, g):\n    return g @ w.T, x.T @ g + 1.0\n", process_sandbox)
    example = next(c for c in outcome.cases if c.name == "example")
    inputs = {name: np.load(__import__("io").BytesIO(v)) for name, v in example.inputs.items()}
    row = shown_row(report.tests[0].as_dict(), {"example": (inputs, members.load(example.expected))})
    html = render_to_string("submissions/_test_row.html", {"row": row})
    assert "grad_weight: values differ at 12 of 12 positions" in html
    assert "Where your values differ in <code>grad_weight</code>" in html and "<svg" in html
    assert "expected grad_weight" in html and "your grad_weight" in html


def test_the_same_members_always_pack_to_the_same_bytes(monkeypatch):
    import time as clock

    first = members.pack({"a": npy([1.0]), "b": npy([[2.0]])})
    monkeypatch.setattr(clock, "time", lambda: 2e9)  # zipfile stamps entries with the current time unless told
    assert members.pack({"a": npy([1.0]), "b": npy([[2.0]])}) == first
    assert members.unpack(first) == {"a": npy([1.0]), "b": npy([[2.0]])}


def test_a_dict_with_a_key_that_is_not_a_string(scale, process_sandbox):
    code = "def scale_grads(grads, factor):\n    return {'w': grads['w'] * factor, 1: grads['b'] * factor}\n"
    message = graded(scale, code, process_sandbox).tests[0].message
    assert message == "expected a dict with the keys 'w', 'b'; a key of the returned dict is not a string"


def test_a_tuple_of_very_many_arrays_is_cut_short(outer, process_sandbox):
    code = "import numpy as np\n\ndef outer_grads(x, w, g):\n    return tuple(np.zeros(1) for _ in range(1000))\n"
    message = graded(outer, code, process_sandbox).tests[0].message
    assert message == "expected a tuple of 2 arrays (grad_x, grad_weight), got a tuple of more than 64 members"


def test_members_together_are_held_to_the_output_limit(outer, process_sandbox):
    package, outcome = outer
    spec = package.spec(max_output_bytes=4096)
    code = "import numpy as np\n\ndef outer_grads(x, w, g):\n    return np.zeros(300), np.zeros(300)\n"
    report = grade(code, spec, outcome.cases, process_sandbox)
    assert report.tests[0].status == TestStatus.OUTPUT_LIMIT_EXCEEDED


def test_a_hidden_member_of_a_class_the_code_defines_is_not_named(outer, process_sandbox):
    code = (
        "import numpy as np\n\nclass Secret_0_12:\n    pass\n\n"
        "def outer_grads(x, w, g):\n    return g @ w.T, Secret_0_12()\n"
    )
    report = graded(outer, code, process_sandbox)
    hidden = next(t for t in report.tests if t.hidden)
    assert hidden.message == "grad_weight: expected a numpy.ndarray, got an object of another type"
    assert "Secret_0_12" in report.tests[0].message


@pytest.mark.docker
def test_several_outputs_come_back_from_a_docker_sandbox(outer, docker_sandbox):
    report = graded(outer, OUTER["wrong/transposed_weight.py"], docker_sandbox)
    assert report.tests[0].message.startswith("grad_weight: expected shape (4, 3), got (3, 4)")
    assert graded(outer, OUTER["solution.py"], docker_sandbox).verdict == Verdict.ACCEPTED
