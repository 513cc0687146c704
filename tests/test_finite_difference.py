"""Backward problems: a gradient is checked against a finite difference of the forward, not only the reference."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.gate import run_gate
from engine.grading import grade
from engine.package import load_package

MANIFEST = """slug = "square_grad"
title = "Gradient of a sum of squares"
difficulty = "easy"

[function]
name = "square_grad"
params = ["x"]

[limits]
time_limit_s = 2.0
memory_mb = 256

[checking]
rtol = 1e-9
atol = 1e-12
fd_rtol = 1e-5
fd_atol = 1e-7

[tests]
seed = 7

[[wrong]]
file = "wrong/forgot_two.py"
fails_with = "wrong_value"
name = "Factor 2 forgotten"
explanation = "d/dx x^2 is 2x."
"""
TESTS = """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False, "fd": True, "args": {"x": np.array([1.0, -2.0])}}
    for i in range(3):
        yield {"name": f"random_{i}", "hidden": True, "fd": True, "args": {"x": rng.standard_normal((3, 4))}}
"""
FINITE_DIFFERENCE = """import numpy as np

def _loss(x):
    return float(np.sum(x * x))

def square_grad(x):
    grad, eps = np.zeros_like(x), 1e-5
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        grad[index] = (_loss(x + step) - _loss(x - step)) / (2 * eps)
    return grad
"""


def write_package(root: Path, solution: str) -> Path:
    folder = root / "square_grad"
    (folder / "wrong").mkdir(parents=True)
    files = {
        "problem.toml": MANIFEST,
        "statement.md": "Return 2x.",
        "starter.py": "def square_grad(x):\n    raise NotImplementedError\n",
        "solution.py": solution,
        "generator.py": TESTS,
        "finite_difference.py": FINITE_DIFFERENCE,
        "wrong/forgot_two.py": "import numpy as np\n\ndef square_grad(x):\n    return np.array(x, dtype=np.float64)\n",
    }
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


RIGHT = "import numpy as np\n\ndef square_grad(x):\n    return 2.0 * x\n"


@pytest.fixture
def gated(tmp_path, process_sandbox):
    package = load_package(write_package(tmp_path, RIGHT))
    return package, run_gate(package, process_sandbox)


def test_the_gate_checks_the_reference_against_the_estimate(gated):
    _, outcome = gated
    assert outcome.passed
    assert "4 tests also checked against a finite-difference estimate" in outcome.check("fd").detail


def test_a_wrong_gradient_is_told_it_disagrees_with_the_finite_difference(gated, process_sandbox):
    package, outcome = gated
    report = grade(package.wrong[0].code, package.spec(), outcome.cases, process_sandbox)
    example = next(t for t in report.tests if t.name == "example")
    assert example.status == "wrong_value"
    assert "disagrees with a finite-difference estimate of the forward at index (0,)" in example.message
    assert "the estimate is 2, yours is 1" in example.message
    hidden = next(t for t in report.tests if t.hidden)
    assert "finite-difference" in hidden.message and "the estimate is" not in hidden.message


def test_a_result_matching_a_wrong_reference_still_fails_the_finite_difference(tmp_path, process_sandbox):
    package = load_package(
        write_package(tmp_path, "import numpy as np\n\ndef square_grad(x):\n    return 2.0 * x + 1e-3\n")
    )
    outcome = run_gate(package, process_sandbox)
    assert outcome.check("reference").passed is False and outcome.check("fd").passed is False
    assert "finite-difference" in outcome.check("reference").detail
