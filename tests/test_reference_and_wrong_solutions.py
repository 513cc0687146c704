"""Every packaged problem: the reference passes, the starter and known-wrong solutions fail as declared."""

from __future__ import annotations

import pytest

from engine.gate import run_gate
from engine.grading import grade, job_of, run_order
from engine.probes import evaluate_probes
from tests.conftest import PROBLEMS
from tests.helpers import first_failure, grade_code, package

SLUGS = sorted(p.name for p in PROBLEMS.iterdir() if (p / "problem.toml").exists())
WRONG = [(slug, wrong) for slug in SLUGS for wrong in package(slug).wrong]


@pytest.mark.parametrize("slug", SLUGS)
def test_reference_solution_is_accepted(slug, process_sandbox):
    report = grade_code(package(slug).solution, slug, process_sandbox)
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]
    assert all(t.checks == dict.fromkeys(["type", "dtype", "shape", "values", "inputs"], "passed") for t in report.tests)


@pytest.mark.parametrize("slug", SLUGS)
def test_starter_code_is_not_accepted(slug, process_sandbox):
    assert grade_code(package(slug).starter, slug, process_sandbox).verdict != "accepted"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_problem_has_at_least_three_known_wrong_solutions(slug):
    assert len(package(slug).wrong) >= 3


@pytest.mark.parametrize(("slug", "wrong"), WRONG, ids=[f"{s}/{w.file}" for s, w in WRONG])
def test_known_wrong_solution_fails_with_its_declared_check(slug, wrong, process_sandbox):
    """``fails_with`` is the check the first failing hidden test reports."""
    report = grade_code(wrong.code, slug, process_sandbox)
    assert report.verdict != "accepted"
    failure = next(t for t in report.tests if t.hidden and t.status != "passed")
    assert failure.status == wrong.fails_with, failure.message


def test_appended_class_token_is_wrong_value(process_sandbox):
    report = grade_code((PROBLEMS / "prepend_class_token/wrong/appended.py").read_text(), "prepend_class_token",
                        process_sandbox)
    failure = first_failure(report)
    assert (report.verdict, failure.status) == ("wrong_answer", "wrong_value")
    assert "first mismatch at index (0, 0, 0)" in failure.message


def test_float32_result_is_wrong_dtype_with_shapes_in_the_message(process_sandbox):
    report = grade_code((PROBLEMS / "prepend_class_token/wrong/float32.py").read_text(), "prepend_class_token",
                        process_sandbox)
    assert first_failure(report).message == "expected a float64 array of shape (1, 3, 3), got float32 of shape (1, 3, 3)"


def test_softmax_over_the_wrong_axis_is_wrong_value(process_sandbox):
    code = (PROBLEMS / "scaled_dot_product_attention/wrong/softmax_over_queries.py").read_text()
    report = grade_code(code, "scaled_dot_product_attention", process_sandbox)
    assert first_failure(report).status == "wrong_value"


def test_naive_softmax_overflows_on_large_scores_and_the_message_says_why(process_sandbox):
    code = (PROBLEMS / "scaled_dot_product_attention/wrong/naive_softmax.py").read_text()
    report = grade_code(code, "scaled_dot_product_attention", process_sandbox)
    failed = [t for t in report.tests if t.status != "passed"]
    assert failed and all(t.hidden for t in failed)
    assert any("subtract the maximum" in t.message for t in failed)


def test_in_place_addition_is_input_mutated(process_sandbox):
    code = (PROBLEMS / "add_positional_embedding/wrong/in_place_add.py").read_text()
    failure = first_failure(grade_code(code, "add_positional_embedding", process_sandbox))
    assert failure.status == "input_mutated"
    assert "`tokens`" in failure.message


# The publish gate, run once per problem in the process sandbox: it records what each known-wrong
# solution did on each test, which is what names a student's misconception.
_GATED: dict = {}


def gated(slug: str, sandbox):
    if slug not in _GATED:
        solved = {name: package(name).solution for name in package(slug).problem.builds_on}
        _GATED[slug] = run_gate(package(slug), sandbox, solved=solved)
    return _GATED[slug]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_problem_passes_the_publish_gate(slug, process_sandbox):
    outcome = gated(slug, process_sandbox)
    failure = outcome.first_failure()
    assert outcome.passed, f"{failure.key}: {failure.detail}" if failure else "a check did not run"


@pytest.mark.parametrize(("slug", "wrong"), WRONG, ids=[f"{s}/{w.file}" for s, w in WRONG])
def test_known_wrong_solution_is_shown_its_named_misconception(slug, wrong, process_sandbox):
    cases = gated(slug, process_sandbox).cases
    report = grade(wrong.code, package(slug).spec(), cases, process_sandbox)
    named = {t.misconception.get("name") for t in report.tests if t.status != "passed"}
    assert wrong.name in named, (named, [(t.name, t.status) for t in report.tests if t.status != "passed"])


PROBED = [(slug, wrong) for slug, wrong in WRONG if wrong.probes]


@pytest.mark.parametrize(("slug", "wrong"), PROBED, ids=[f"{s}/{w.file}" for s, w in PROBED])
def test_probes_fire_for_the_seeded_wrong_solutions_that_declare_them(slug, wrong, process_sandbox):
    report = grade(wrong.code, package(slug).spec(), gated(slug, process_sandbox).cases, process_sandbox)
    assert set(wrong.probes) <= {p["name"] for p in report.properties}
    assert all(p["message"] and "{index}" not in p["message"] for p in report.properties)


@pytest.mark.parametrize("slug", sorted({slug for slug, _ in PROBED}))
def test_the_reference_breaks_no_probe(slug, process_sandbox):
    spec = package(slug).spec()
    cases = gated(slug, process_sandbox).cases
    sandbox_events = process_sandbox.run(job_of(package(slug).solution, spec, run_order(cases))).events
    tests = [e for e in sandbox_events if e.get("event") == "test"]
    events = {case.name: raw for case, raw in zip(run_order(cases), tests)}
    assert evaluate_probes(spec, [c for c in cases if c.probe], events) == []
