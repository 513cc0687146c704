from __future__ import annotations

import os

os.environ.setdefault("JUDGE_TEST", "1")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = REPO / "problems"


@pytest.fixture
def problems(db):
    """The three packaged problems, synced into the test database."""
    from judge.problems.models import Problem
    from judge.problems.services import sync_problems

    sync_problems()
    return {p.slug: p for p in Problem.objects.all()}


@pytest.fixture(scope="session")
def process_sandbox():
    from sandbox.backends.process import ProcessSandbox

    sandbox = ProcessSandbox()
    yield sandbox
    sandbox.close()


@pytest.fixture
def student(django_user_model):
    return django_user_model.objects.create_user("ada", password="correct horse battery")


@pytest.fixture
def second_student(django_user_model):
    return django_user_model.objects.create_user("grace", password="another horse battery")


def read_solution(slug: str, name: str = "solution.py") -> str:
    return (PROBLEMS / slug / name).read_text()
