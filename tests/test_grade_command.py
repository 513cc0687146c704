"""``manage.py grade``: what authors and our checks run."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import PROBLEMS, REPO

pytestmark = pytest.mark.heavy  # each call starts Django and a sandbox in a process of its own


def grade(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "grade", *args], cwd=REPO, capture_output=True, text=True, timeout=120
    )


def test_json_output_has_one_object_per_file_in_order(tmp_path):
    correct = PROBLEMS / "prepend_class_token/solution.py"
    wrong = PROBLEMS / "prepend_class_token/wrong/appended.py"
    result = grade("prepend_class_token", str(correct), str(wrong), "--sandbox", "process", "--json")
    assert result.returncode == 0, result.stderr
    reports = json.loads(result.stdout)
    assert [(r["file"], r["verdict"]) for r in reports] == [(str(correct), "accepted"), (str(wrong), "wrong_answer")]
    test = reports[1]["tests"][0]
    assert set(test) == {"name", "hidden", "status", "message", "time_ms"}
    assert (test["name"], test["hidden"], test["status"]) == ("example_1", False, "wrong_value")
    assert all(t["status"] == "passed" for t in reports[0]["tests"])


def test_unknown_problem_is_a_usage_error():
    result = grade("no_such_problem", str(PROBLEMS / "prepend_class_token/solution.py"))
    assert result.returncode == 2
    assert "unknown problem 'no_such_problem'" in result.stderr


def test_unreadable_or_non_utf8_file_is_a_usage_error(tmp_path):
    missing = grade("prepend_class_token", str(tmp_path / "nope.py"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# caf\xe9\ndef prepend_class_token(p, c):\n    return p\n")
    result = grade("prepend_class_token", str(latin))
    assert result.returncode == 2 and "not valid UTF-8 (byte 0xe9 on line 1)" in result.stderr


def test_wrong_verdicts_still_exit_zero(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def prepend_class_token(patches, cls_token)\n    return patches\n")
    result = grade("prepend_class_token", str(broken), "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout)[0]["verdict"] == "compile_error"


def test_probe_results_the_student_sees_are_in_the_json_and_the_text_report():
    # Issue 25: the student's page names the broken property; the command left it out.
    wrong = PROBLEMS / "causal_mask/wrong/zero_one_mask.py"
    as_json = grade("causal_mask", str(wrong), "--sandbox", "process", "--json")
    assert as_json.returncode == 0, as_json.stderr
    properties = json.loads(as_json.stdout)[0]["properties"]
    assert [p["name"] for p in properties] == ["The mask is not additive"]
    assert properties[0]["message"].startswith("causal_mask(6) holds a value other than 0 and -inf")
    assert properties[0]["see"] == "theory#an-additive-mask"
    as_text = grade("causal_mask", str(wrong), "--sandbox", "process")
    assert "  property broken: The mask is not additive. causal_mask(6) holds a value" in as_text.stdout
