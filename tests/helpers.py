"""Grading helpers shared by tests: grade code against a package, no database."""

from __future__ import annotations

import functools
import io

import numpy as np

from judge.grading.grader import Case, GradeReport, ProblemSpec, grade
from judge.problems.packages import Package, build_cases, load_package
from tests.conftest import PROBLEMS


@functools.lru_cache(maxsize=None)
def package(slug: str) -> Package:
    return load_package(PROBLEMS / slug)


@functools.lru_cache(maxsize=None)
def cases(slug: str) -> tuple[Case, ...]:
    return tuple(build_cases(package(slug)))


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
