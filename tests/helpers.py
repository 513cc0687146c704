"""Grading helpers shared by tests: grade code against a package, no database."""

from __future__ import annotations

import functools
import io
import re
import shutil
from pathlib import Path

import numpy as np

from engine.grading import GradeReport, grade
from engine.package import Package, load_package
from engine.spec import Case, ProblemSpec
from engine.testset import build_cases
from judge.lib.sandbox_backend import lazy_sandbox
from tests.conftest import PROBLEMS


@functools.cache
def package(slug: str) -> Package:
    return load_package(PROBLEMS / slug)


@functools.cache
def cases(slug: str) -> tuple[Case, ...]:
    with lazy_sandbox() as sandbox:
        return tuple(build_cases(package(slug), sandbox))


def grade_code(code: str, slug: str, sandbox) -> GradeReport:
    return grade(code, package(slug).spec(), list(cases(slug)), sandbox)


def spec(**overrides) -> ProblemSpec:
    base = dict(function="f", params=["x"], time_limit_s=2.0, memory_mb=256, rtol=1e-7, atol=1e-9)
    return ProblemSpec(**(base | overrides))


def npy(array) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(array))
    return buffer.getvalue()


def one_case(x, expected, hidden: bool = False, name: str = "t") -> list[Case]:
    return [Case(name, hidden, {"x": npy(x)}, npy(expected))]


def first_failure(report: GradeReport):
    return next((t for t in report.tests if t.status != "passed"), None)


def standalone_manifest(text: str) -> str:
    """A manifest without prerequisites (nor problems it builds on), for tests that load one packaged problem alone."""
    text = re.sub(r"^builds_on = .*$", "", text, count=1, flags=re.MULTILINE)
    return re.sub(r"^prerequisites = .*$", "prerequisites = []", text, count=1, flags=re.MULTILINE)


def standalone_files(slug: str) -> dict[str, str]:
    from judge.problems.drafts import files_from_folder

    files = files_from_folder(PROBLEMS / slug)
    return files | {"problem.toml": standalone_manifest(files["problem.toml"])}


def standalone_copy(slug: str, root: Path) -> Path:
    shutil.copytree(PROBLEMS / slug, root / slug)
    manifest = root / slug / "problem.toml"
    manifest.write_text(standalone_manifest(manifest.read_text()))
    return root / slug
