"""Every packaged problem: the reference passes, the starter and known-wrong solutions fail as declared.

Each problem goes through its publish gate once (in the process sandbox); the assertions read the runs the gate
made (tests/recording.py) rather than grading the same code again.  A problem's tests share one xdist group, so
its gate runs in one worker.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.checks import DIAGNOSABLE
from engine.gate import run_gate
from engine.probes import evaluate_probes
from tests.conftest import PROBLEMS
from tests.helpers import first_failure, package
from tests.recording import GatedProblem, RecordingSandbox

pytestmark = pytest.mark.course

SLUGS = sorted(p.name for p in PROBLEMS.iterdir() if (p / "problem.toml").exists())
WRONG = [(slug, wrong) for slug in SLUGS for wrong in package(slug).wrong]
PROBED = [(slug, wrong) for slug, wrong in WRONG if wrong.probes]
# A run killed by the memory or time limit returns no output to compare with the known-wrong one
# (engine/checks.py DIAGNOSABLE), so such a mistake is told by its status and the statement, not by name.
DIAGNOSED = [(slug, wrong) for slug, wrong in WRONG if wrong.fails_with in DIAGNOSABLE]


def per_problem(slug: str, *rest, id: str | None = None):
    return pytest.param(slug, *rest, id=id or slug, marks=pytest.mark.xdist_group(f"gate-{slug}"))


def by_problem(pairs):
    return [per_problem(slug, wrong, id=f"{slug}/{wrong.file}") for slug, wrong in pairs]


@pytest.fixture(scope="module")
def gated(process_sandbox):
    """slug -> the problem's gate, run once in this module."""
    done: dict[str, GatedProblem] = {}

    def gate(slug: str) -> GatedProblem:
        if slug not in done:
            solved = {name: package(name).solution for name in package(slug).problem.builds_on}
            recorder = RecordingSandbox(process_sandbox)
            done[slug] = GatedProblem(package(slug), run_gate(package(slug), recorder, solved=solved), recorder,
                                      solved)
        return done[slug]

    return gate


def without_known_wrong(gate: GatedProblem):
    """The cases as a fresh build gives them, before the gate records what the known-wrong solutions did."""
    return [dataclasses.replace(case, known_wrong=()) for case in gate.outcome.cases]


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in SLUGS])
def test_reference_solution_is_accepted(slug, gated):
    report = gated(slug).report(package(slug).solution, without_known_wrong(gated(slug)))
    assert report.verdict == "accepted", [(t.name, t.status, t.message) for t in report.tests]
    assert all(t.checks == dict.fromkeys(["type", "dtype", "shape", "values", "inputs"], "passed") for t in report.tests)


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in SLUGS])
def test_starter_code_is_not_accepted(slug, gated):
    assert gated(slug).report(package(slug).starter, without_known_wrong(gated(slug))).verdict != "accepted"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_problem_has_at_least_three_known_wrong_solutions(slug):
    assert len(package(slug).wrong) >= 3


@pytest.mark.parametrize(("slug", "wrong"), by_problem(WRONG))
def test_known_wrong_solution_fails_with_its_declared_check(slug, wrong, gated):
    """``fails_with`` is the check one of its failing hidden tests reports (whichever runs first)."""
    report = gated(slug).report(wrong.code, without_known_wrong(gated(slug)))
    assert report.verdict != "accepted"
    failing = {t.status for t in report.tests if t.hidden and t.status != "passed"}
    assert wrong.fails_with in failing, failing


def wrong_report(gated, slug: str, file: str):
    return gated(slug).report((PROBLEMS / slug / file).read_text(), without_known_wrong(gated(slug)))


@pytest.mark.xdist_group("gate-prepend_class_token")
def test_appended_class_token_is_wrong_value(gated):
    report = wrong_report(gated, "prepend_class_token", "wrong/appended.py")
    failure = first_failure(report)
    assert (report.verdict, failure.status) == ("wrong_answer", "wrong_value")
    assert "first mismatch at index (0, 0, 0)" in failure.message


@pytest.mark.xdist_group("gate-prepend_class_token")
def test_float32_result_is_wrong_dtype_with_shapes_in_the_message(gated):
    report = wrong_report(gated, "prepend_class_token", "wrong/float32.py")
    assert first_failure(report).message == "expected a float64 array of shape (1, 3, 3), got float32 of shape (1, 3, 3)"


@pytest.mark.xdist_group("gate-scaled_dot_product_attention")
def test_softmax_over_the_wrong_axis_is_wrong_value(gated):
    report = wrong_report(gated, "scaled_dot_product_attention", "wrong/softmax_over_queries.py")
    assert first_failure(report).status == "wrong_value"


@pytest.mark.xdist_group("gate-scaled_dot_product_attention")
def test_naive_softmax_overflows_on_large_scores_and_the_message_says_why(gated):
    report = wrong_report(gated, "scaled_dot_product_attention", "wrong/naive_softmax.py")
    failed = [t for t in report.tests if t.status != "passed"]
    assert failed and all(t.hidden for t in failed)
    assert any("subtract the maximum" in t.message for t in failed)


@pytest.mark.xdist_group("gate-add_positional_embedding")
def test_in_place_addition_is_input_mutated(gated):
    failure = first_failure(wrong_report(gated, "add_positional_embedding", "wrong/in_place_add.py"))
    assert failure.status == "input_mutated"
    assert "`tokens`" in failure.message


@pytest.mark.xdist_group("gate-flash_attention")
def test_full_attention_matrix_runs_out_of_memory_on_the_long_test_only(gated):
    report = wrong_report(gated, "flash_attention", "wrong/full_score_matrix.py")
    failed = [(t.name, t.status) for t in report.tests if t.status != "passed"]
    assert failed == [("long_sequence_3072", "memory_limit_exceeded")]


@pytest.mark.xdist_group("gate-grouped_query_attention")
def test_round_robin_key_value_heads_are_wrong_on_the_grouping_example(gated):
    report = wrong_report(gated, "grouped_query_attention", "wrong/heads_interleaved.py")
    example = next(t for t in report.tests if t.name == "example_two_groups")
    assert example.status == "wrong_value"


@pytest.mark.xdist_group("gate-top_k_logits")
def test_exactly_k_survivors_fail_where_logits_tie_at_the_kth_value(gated):
    report = wrong_report(gated, "top_k_logits", "wrong/exactly_k_by_argsort.py")
    statuses = {t.name: t.status for t in report.tests}
    assert statuses["ties_at_kth"] == statuses["repeated_maximum_k1"] == "wrong_value"
    assert statuses["k_one"] == statuses["gpt2_vocab_k50"] == "passed"


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in SLUGS])
def test_every_problem_passes_the_publish_gate(slug, gated):
    outcome = gated(slug).outcome
    failure = outcome.first_failure()
    assert outcome.passed, f"{failure.key}: {failure.detail}" if failure else "a check did not run"


@pytest.mark.parametrize(("slug", "wrong"), by_problem(DIAGNOSED))
def test_known_wrong_solution_is_shown_its_named_misconception(slug, wrong, gated):
    report = gated(slug).report(wrong.code)
    named = {t.misconception.get("name") for t in report.tests if t.status != "passed"}
    assert wrong.name in named, (named, [(t.name, t.status) for t in report.tests if t.status != "passed"])


@pytest.mark.parametrize(("slug", "wrong"), by_problem(PROBED))
def test_probes_fire_for_the_seeded_wrong_solutions_that_declare_them(slug, wrong, gated):
    report = gated(slug).report(wrong.code)
    assert set(wrong.probes) <= {p["name"] for p in report.properties}
    assert all(p["message"] and "{index}" not in p["message"] for p in report.properties)


@pytest.mark.parametrize("slug", [per_problem(slug) for slug in sorted({slug for slug, _ in PROBED})])
def test_the_reference_breaks_no_probe(slug, gated):
    gate = gated(slug)
    events = gate.events_by_case(package(slug).solution)
    cases = gate.outcome.cases
    assert evaluate_probes(package(slug).spec(), [c for c in cases if c.probe], events) == []
