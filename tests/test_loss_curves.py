"""A training run's answer is a curve: the probe "falls" checks that a loss goes down step by step, and the
result page draws a visible test's series beside the reference's (``picture = "curve"``), never a hidden one's.

The package here is tiny: ``descend(x0, lr, steps)`` runs gradient descent on f(x) = |x|^2 / 2 and returns
f before each step; its known-wrong twin climbs instead.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from django.template.loader import render_to_string

from engine.gate import run_gate
from engine.grading import grade
from engine.package import PackageError, load_package
from engine.probes import breaks
from engine.spec import ProbeSpec
from engine.verdicts import TestStatus, Verdict

MANIFEST = """slug = "descend"
title = "Walk downhill"
difficulty = "easy"

[function]
name = "descend"
params = ["x0", "lr", "steps"]

[function.kinds]
lr = "float"
steps = "int"

[limits]
time_limit_s = 2.0
memory_mb = 256

[checking]
rtol = 1e-9
atol = 1e-12

[display]
picture = "curve"

[tests]
seed = 5

[[probes]]
name = "The loss does not fall"
check = "falls"
cases = ["falls_base"]
message = "with a small step the loss went up or stayed put"

[[wrong]]
file = "wrong/climbs.py"
fails_with = "wrong_value"
name = "Climbed the gradient"
explanation = "Subtract lr times the gradient."
probes = ["The loss does not fall"]
"""

DESCEND = """import numpy as np

def descend(x0, lr, steps):
    x, losses = x0.copy(), []
    for _ in range(steps):
        losses.append(0.5 * float(np.sum(x * x)))
        x = x {sign} lr * x
    return np.array(losses)
"""

FILES = {
    "problem.toml": MANIFEST,
    "generator.py": """import numpy as np

def generate(rng):
    yield {"name": "example", "hidden": False, "args": {"x0": rng.standard_normal(3), "lr": 0.3, "steps": 6}}
    for i in range(2):
        yield {"name": f"hidden_{i}", "hidden": True, "args": {"x0": rng.standard_normal(4), "lr": 0.2, "steps": 5}}
    yield {"name": "falls_base", "probe": True, "args": {"x0": rng.standard_normal(3), "lr": 0.1, "steps": 8}}
""",
    "solution.py": DESCEND.format(sign="-"),
    "starter.py": "def descend(x0, lr, steps):\n    raise NotImplementedError\n",
    "statement.md": "Return the loss before each step.",
    "wrong/climbs.py": DESCEND.format(sign="+"),
}


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture(scope="module")
def gated(tmp_path_factory, process_sandbox):
    package = load_package(write(tmp_path_factory.mktemp("descend") / "descend", FILES))
    return package, run_gate(package, process_sandbox)


def falls(axis: int = -1, region: str = "") -> ProbeSpec:
    return ProbeSpec(name="falls", check="falls", cases=("a",), message="m", axis=axis, region=region)


def test_a_series_that_goes_down_at_every_step_keeps_the_probe_quiet():
    assert breaks(falls(), [np.array([3.0, 2.0, 1.5, 1.49])], 1e-9, 1e-12) is None


def test_a_step_that_rises_or_stays_put_breaks_it_at_that_step():
    assert breaks(falls(), [np.array([3.0, 2.0, 2.5, 1.0])], 1e-9, 1e-12) == "2"
    assert breaks(falls(), [np.array([3.0, 3.0, 2.0])], 1e-9, 1e-12) == "1"


def test_falls_reads_the_declared_axis_and_region():
    runs = np.array([[3.0, 2.0, 1.0], [1.0, 2.0, 3.0]])  # two runs, steps along axis 1
    assert breaks(falls(region="[:1]"), [runs], 1e-9, 1e-12) is None
    assert breaks(falls(), [runs], 1e-9, 1e-12) == "(1, 1)"
    assert breaks(falls(axis=0), [np.array([[3.0], [2.0], [1.0]])], 1e-9, 1e-12) is None
    assert breaks(falls(), [np.array([2.0])], 1e-9, 1e-12) is None  # one step: nothing to compare


def test_the_gate_sees_the_climber_break_the_probe_and_the_reference_keep_it(gated):
    package, outcome = gated
    assert outcome.passed, outcome.as_list()
    assert package.problem.picture == "curve"
    assert type(package.problem).from_dict(package.problem.as_dict()) == package.problem


def test_a_climbing_submission_is_told_its_loss_does_not_fall(gated, process_sandbox):
    package, outcome = gated
    report = grade(FILES["wrong/climbs.py"], package.spec(), outcome.cases, process_sandbox)
    assert report.verdict == Verdict.WRONG_ANSWER
    assert [p["message"] for p in report.properties] == ["with a small step the loss went up or stayed put"]


@pytest.mark.parametrize(
    "change, message",
    [
        ('cases = ["falls_base"]', 'cases = ["falls_base", "example"]'),
        ('picture = "curve"', 'picture = "bars"'),
    ],
)
def test_the_manifest_refuses_a_malformed_falls_probe_or_picture(tmp_path, change, message):
    files = FILES | {"problem.toml": MANIFEST.replace(change, message)}
    with pytest.raises(PackageError, match=r"cases|picture"):
        load_package(write(tmp_path / "descend", files))


def rows_of(gated, code: str, sandbox):
    from judge.display.results import shown_row

    package, outcome = gated
    report = grade(code, package.spec(), outcome.cases, sandbox)
    example = next(c for c in outcome.cases if c.name == "example")
    inputs = {name: np.load(io.BytesIO(v)) if isinstance(v, bytes) else v for name, v in example.inputs.items()}
    expected = np.load(io.BytesIO(example.expected))
    return report, [shown_row(t.as_dict(), {"example": (inputs, expected)}, picture="curve") for t in report.tests]


def test_an_accepted_run_draws_its_curve_beside_the_reference_on_the_visible_test_only(gated, process_sandbox):
    report, rows = rows_of(gated, FILES["solution.py"], process_sandbox)
    assert report.verdict == Verdict.ACCEPTED
    shown = {row.name: row for row in rows}
    html = render_to_string("submissions/_results.html", {"rows": rows})
    before_the_fold = html.split('<details class="tests-folded')[0]  # passed tests are folded away
    assert '<div class="curve" data-test="example"><h4>Your example run beside the reference\'s' in before_the_fold
    assert html.count("<polyline") == 2 and 'class="yours"' in html and 'class="reference"' in html
    assert html.count("<circle") == 12  # six steps each
    for name in ("hidden_0", "hidden_1"):
        assert shown[name].curve is None and shown[name].actual is None
        assert "<svg" not in render_to_string("submissions/_test_row.html", {"row": shown[name]})
    stored = [t.as_dict() for t in report.tests if t.hidden]
    assert all("actual_npy" not in (t.get("detail") or {}) for t in stored)


def test_a_run_that_drifts_shows_both_curves_and_where_they_part(gated, process_sandbox):
    _report, rows = rows_of(gated, DESCEND.format(sign="-").replace("lr * x", "lr * 1.5 * x"), process_sandbox)
    example = next(row for row in rows if row.name == "example")
    assert example.status == TestStatus.WRONG_VALUE
    html = render_to_string("submissions/_test_row.html", {"row": example})
    assert html.count("<polyline") == 2 and "Where your values differ" in html
    first_points = [line.split('points="')[1].split(" ")[0] for line in html.split("<polyline")[1:]]
    assert first_points[0] == first_points[1]  # both start from the same untrained loss
    assert html.split("<polyline")[1].split('points="')[1] != html.split("<polyline")[2].split('points="')[1]
