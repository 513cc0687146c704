"""A problem may build on earlier ones: the manifest says which, and the gate lends it their references."""

from __future__ import annotations

import pytest

from engine.gate import run_gate
from engine.grading import grade
from engine.package import PackageError, load_package
from engine.spec import ProblemSpec
from tests.composition import DOUBLE, QUADRUPLE_WITH_SOLVED, write_packages


def quadruple(tmp_path, line: str):
    return load_package(write_packages(tmp_path, line)["quadruple_it"])


def test_the_manifest_lists_the_problems_a_problem_builds_on(tmp_path):
    package = quadruple(tmp_path, 'builds_on = ["double_it"]')
    assert package.problem.builds_on == ("double_it",)
    assert package.prerequisites == ["double_it"]  # so it comes after them on the learning path


def test_builds_on_survives_the_stored_spec_and_defaults_to_nothing(tmp_path):
    package = quadruple(tmp_path, 'builds_on = ["double_it"]')
    stored = package.problem.as_dict()
    assert stored["builds_on"] == ["double_it"]
    assert ProblemSpec.from_dict(stored).builds_on == ("double_it",)
    assert ProblemSpec.from_dict({k: v for k, v in stored.items() if k != "builds_on"}).builds_on == ()
    assert load_package(write_packages(tmp_path / "plain")["double_it"]).problem.builds_on == ()


@pytest.mark.parametrize(
    "line, error",
    [
        ('builds_on = "double_it"', "quadruple_it/problem.toml: function.builds_on must be a list, got str"),
        ('builds_on = ["Double It"]', "function.builds_on must list problem slugs, got 'Double It'"),
        ('builds_on = ["quadruple_it"]', "function.builds_on cannot name the problem itself ('quadruple_it')"),
        ('builds_on = ["double_it", "double_it"]', "function.builds_on names a problem twice"),
    ],
)
def test_a_malformed_builds_on_names_the_field(tmp_path, line, error):
    with pytest.raises(PackageError, match=error.replace("(", r"\(").replace(")", r"\)")):
        quadruple(tmp_path, line)


@pytest.fixture(scope="module")
def gated(tmp_path_factory, process_sandbox):
    package = load_package(write_packages(tmp_path_factory.mktemp("gate"))["quadruple_it"])
    return package, run_gate(package, process_sandbox, solved={"double_it": DOUBLE})


def test_the_gate_runs_the_starter_and_known_wrong_solutions_with_the_earlier_references(gated):
    _, outcome = gated
    assert outcome.passed, outcome.as_list()
    assert (
        "wrong/identity.py: declares wrong_value, its failing hidden tests give wrong_value on 3 tests"
        in outcome.check("wrong").detail
    )


def test_without_the_references_a_known_wrong_solution_that_imports_them_cannot_load(gated, process_sandbox):
    package, _ = gated
    outcome = run_gate(package, process_sandbox)
    assert outcome.check("reference").passed  # the reference is self-contained
    assert outcome.check("wrong").passed is False
    assert outcome.check("wrong").detail.startswith("FAIL wrong/identity.py: declares wrong_value")


def test_a_submission_built_from_the_students_own_function_is_accepted(gated, process_sandbox):
    package, outcome = gated
    report = grade(QUADRUPLE_WITH_SOLVED, package.spec(), outcome.cases, process_sandbox, solved={"double_it": DOUBLE})
    assert report.verdict == "accepted"
    wrong_double = "def double_it(x):\n    return x + x + 1e-3\n"
    report = grade(
        QUADRUPLE_WITH_SOLVED, package.spec(), outcome.cases, process_sandbox, solved={"double_it": wrong_double}
    )
    assert report.verdict == "wrong_answer"
