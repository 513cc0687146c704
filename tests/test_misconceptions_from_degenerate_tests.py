"""A misconception is not named from a test on which it cannot be told apart from another mistake.

Issue 25: logit_lens with the softmax over the layer axis was told "Softmax taken over the positions": on the
width-one test every position holds the same logits, so a softmax over any axis of length 3 gives the same
output as the known-wrong solution that normalises over the positions.
"""

from __future__ import annotations

import pytest

from engine.gate import run_gate
from engine.grading import grade
from tests.conftest import read_solution
from tests.helpers import package

pytestmark = pytest.mark.catalogue  # gates a packaged problem

SLUG = "logit_lens"
OVER_LAYERS = (
    read_solution(SLUG)
    .replace("logits.max(axis=-1, keepdims=True)", "logits.max(axis=0, keepdims=True)")
    .replace("weights.sum(axis=-1, keepdims=True)", "weights.sum(axis=0, keepdims=True)")
)


@pytest.fixture(scope="module")
def cases(process_sandbox):
    outcome = run_gate(package(SLUG), process_sandbox)
    assert outcome.passed
    return outcome.cases


def test_the_width_one_test_alone_does_not_name_a_misconception(cases, process_sandbox):
    assert read_solution(SLUG) != OVER_LAYERS
    report = grade(OVER_LAYERS, package(SLUG).spec(), cases, process_sandbox)
    width_one = next(t for t in report.tests if t.name == "width_one")
    assert width_one.status == "wrong_value"  # it fails there, with the same output as the positions mistake
    positions = next(
        k
        for k in next(c for c in cases if c.name == "width_one").known_wrong
        if k.name.startswith("Softmax taken over the positions")
    )
    assert positions.status == "wrong_value"
    assert [t.misconception for t in report.tests if t.misconception] == []


def test_the_mistake_it_is_keeps_its_name_on_every_test(cases, process_sandbox):
    wrong = next(w for w in package(SLUG).wrong if w.file == "wrong/softmax_over_positions.py")
    report = grade(wrong.code, package(SLUG).spec(), cases, process_sandbox)
    named = {t.name for t in report.tests if t.misconception.get("name") == wrong.name}
    failing = {t.name for t in report.tests if t.status != "passed"}
    assert "width_one" in named and named == failing
