"""Write operations on problems: loading packages into the database."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import transaction

from judge.grading.arrays import pack_inputs, unpack_inputs
from judge.grading.grader import Case, ProblemSpec
from judge.problems.models import Problem, TestCase, TestSet, WrongSolution
from judge.problems.packages import Package, PackageError, build_cases, discover, load_package


@dataclass
class SyncOutcome:
    slug: str
    action: str  # created | updated | unchanged
    cases: int = 0


def learning_path(packages: list[Package], known: set[str]) -> list[str]:
    """Order slugs so that prerequisites come first (ties: difficulty, then slug)."""
    by_slug = {p.slug: p for p in packages}
    for package in packages:
        missing = [s for s in package.prerequisites if s not in by_slug and s not in known]
        if missing:
            raise PackageError(f"{package.slug}/problem.toml: prerequisites name unknown problem(s) {missing}")
    rank = {"easy": 0, "medium": 1, "hard": 2}
    ordered, placed = [], set(known) - set(by_slug)
    pending = sorted(packages, key=lambda p: (rank[p.difficulty], p.slug))
    while pending:
        ready = [p for p in pending if all(s in placed for s in p.prerequisites)]
        if not ready:
            raise PackageError(f"prerequisites form a cycle among {[p.slug for p in pending]}")
        ordered.append(ready[0].slug)
        placed.add(ready[0].slug)
        pending.remove(ready[0])
    return ordered


def sync_problems(root: Path | None = None, only: list[str] | None = None) -> list[SyncOutcome]:
    """Load every package under ``root`` into the database; idempotent."""
    root = root or settings.PROBLEMS_DIR
    packages = [load_package(path) for path in discover(root)]
    if only:
        unknown = set(only) - {p.slug for p in packages}
        if unknown:
            raise PackageError(f"no package named {', '.join(sorted(unknown))} under {root}")
    order = learning_path(packages, set(Problem.objects.values_list("slug", flat=True)))
    outcomes = []
    for package in packages:
        if only and package.slug not in only:
            continue
        outcomes.append(sync_package(package, order.index(package.slug)))
    return outcomes


def sync_package(package: Package, path_order: int = 0) -> SyncOutcome:
    existing = Problem.objects.filter(slug=package.slug).first()
    if existing and existing.package_hash == package.content_hash and existing.current_test_set_id:
        if existing.path_order != path_order:
            Problem.objects.filter(pk=existing.pk).update(path_order=path_order)
        return SyncOutcome(package.slug, "unchanged", existing.current_test_set.cases.count())
    cases = build_cases(package)  # before the transaction: it runs author code
    with transaction.atomic():
        problem, created = Problem.objects.update_or_create(slug=package.slug, defaults=_fields(package, path_order))
        test_set, fresh = TestSet.objects.get_or_create(problem=problem, version=package.content_hash)
        if fresh:
            TestCase.objects.bulk_create(
                TestCase(test_set=test_set, index=i, name=c.name, hidden=c.hidden,
                         inputs=pack_inputs(c.inputs), expected=c.expected)
                for i, c in enumerate(cases)
            )
        problem.current_test_set = test_set
        problem.save(update_fields=["current_test_set"])
        problem.wrong_solutions.all().delete()
        WrongSolution.objects.bulk_create(
            WrongSolution(problem=problem, file=w.file, code=w.code, fails_with=w.fails_with,
                          name=w.name, explanation=w.explanation, see=w.see)
            for w in package.wrong
        )
    return SyncOutcome(package.slug, "created" if created else "updated", len(cases))


def _fields(package: Package, path_order: int) -> dict:
    return {
        "title": package.title, "summary": package.summary, "difficulty": package.difficulty,
        "tags": package.tags, "prerequisites": package.prerequisites, "path_order": path_order,
        "statement_md": package.statement, "theory_md": package.theory, "hints": package.hints,
        "starter_code": package.starter, "solution_code": package.solution,
        "function_name": package.function, "params": package.params,
        "time_limit_s": package.time_limit_s, "memory_mb": package.memory_mb,
        "rtol": package.rtol, "atol": package.atol, "package_hash": package.content_hash,
    }


def problem_spec(problem: Problem) -> ProblemSpec:
    return ProblemSpec(problem.function_name, list(problem.params), problem.time_limit_s,
                       problem.memory_mb, problem.rtol, problem.atol, settings.MAX_OUTPUT_BYTES)


def load_cases(test_set: TestSet, visible_only: bool = False) -> list[Case]:
    cases = test_set.cases.all()
    if visible_only:
        cases = cases.filter(hidden=False)
    return [Case(c.name, c.hidden, unpack_inputs(bytes(c.inputs)), bytes(c.expected)) for c in cases]
