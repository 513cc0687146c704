"""The attack suite runs every payload through each backend it applies to.

A canary secret is put where a worker keeps secrets (its environment, a file in
the project's var/ directory) before any sandbox starts; no payload may bring it
back into what a student sees.
"""

from __future__ import annotations

import dataclasses
import json
import os
import uuid

import pytest

from engine.grading import GradeReport, grade
from tests.conftest import REPO, read_solution
from tests.helpers import cases, package
from tests.leftovers import leftovers

SLUG = "prepend_class_token"
CANARY = f"canary-{uuid.uuid4().hex}"
os.environ["JUDGE_SECURITY_CANARY"] = CANARY
CANARY_FILE = REPO / "var" / "security-canary.txt"


@pytest.fixture(scope="session", autouse=True)
def canary_file():
    CANARY_FILE.parent.mkdir(parents=True, exist_ok=True)
    CANARY_FILE.write_text(CANARY)
    yield CANARY_FILE
    CANARY_FILE.unlink(missing_ok=True)


@pytest.fixture(params=[pytest.param("docker", marks=pytest.mark.docker), "process"])
def sandbox(request):
    if request.param == "process" and os.geteuid() != 0:
        pytest.skip("the process backend isolates nothing without root (documented)")
    return request.getfixturevalue(f"{request.param}_sandbox")


@pytest.fixture
def docker_only(sandbox):
    from sandbox.backends.docker import DockerSandbox

    if not isinstance(sandbox, DockerSandbox):
        pytest.skip("this attack is about the container")
    return sandbox


def attack_cases():
    """One visible and one hidden test of the real problem: enough to attack, quick to time out."""
    all_cases = cases(SLUG)
    return [next(c for c in all_cases if not c.hidden), next(c for c in all_cases if c.hidden)]


def attack_spec():
    return dataclasses.replace(package(SLUG).spec(), time_limit_s=1.0)


def run_attack(code: str, sandbox) -> GradeReport:
    return grade(code, attack_spec(), attack_cases(), sandbox)


def what_the_student_sees(report: GradeReport) -> str:
    return json.dumps(report.as_dict(), default=str)


def assert_contained(report: GradeReport, sandbox, *, verdicts: tuple[str, ...] = ()) -> None:
    """Never accepted, nothing secret shown, nothing left, and the next submission is graded normally."""
    assert report.verdict != "accepted"
    if verdicts:
        assert report.verdict in verdicts, report.as_dict()
    seen = what_the_student_sees(report)
    assert CANARY not in seen
    assert "Reference: tile the shared token" not in seen  # the reference solution's source
    hidden = attack_cases()[1]
    assert hidden.expected.hex()[-64:] not in seen
    assert leftovers(sandbox) == []
    assert run_attack(read_solution(SLUG), sandbox).verdict == "accepted"
    assert leftovers(sandbox) == []


def solution(body: str, header: str = "") -> str:
    """A submission whose prepend_class_token runs ``body``."""
    indented = "".join(f"    {line}\n" for line in body.strip("\n").splitlines())
    return f"import numpy as np\n{header}\ndef prepend_class_token(patches, cls_token):\n{indented}"


WRONG = "return np.zeros((patches.shape[0], patches.shape[1] + 1, patches.shape[2]))"
