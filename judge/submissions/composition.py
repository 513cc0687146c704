"""Problems that build on earlier ones (``builds_on`` in the manifest): whose code they import, and when they open.

A student's submission imports their OWN latest accepted solution of each earlier
problem (``from solved import layer_norm``); never anyone else's, and never
anything of the test data.  The problem stays locked for them until every one is
solved.  The publish gate imports the earlier problems' published references
instead.  A Submit whose grade is held from the student (``withheld``: an
assignment that releases grades later) solves nothing here until release: it
neither opens what builds on it nor is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Min

from engine.package import PackageError
from judge.problems.models import Problem
from judge.submissions.models import Submission
from judge.submissions.queries import accepted_submits
from judge.submissions.withheld import held_since, solve_shown, unheld


@dataclass(frozen=True)
class Prerequisite:
    """One problem this one builds on, as the page shows it to one student."""

    slug: str
    title: str
    solution: Submission | None  # their latest accepted submit of it, or None: not solved yet

    @property
    def submitted_at(self) -> datetime | None:
        return self.solution.created_at if self.solution else None


def builds_on(problem: Problem) -> list[str]:
    return list(problem.spec.get("builds_on", []))


def chain_to_solve(slug: str, builds_on_of: dict[str, list[str]], solved: set[str], order: dict[str, int]) -> list[str]:
    """Every problem still to solve before ``slug`` opens, in learning-path order: the unsolved ones it
    builds on, and what those build on in turn (a solved problem's own chain is already done: it was open).
    ``builds_on_of``: slug -> the slugs it builds on; ``order``: slug -> place on the learning path."""
    missing: set[str] = set()
    pending = [s for s in builds_on_of.get(slug, []) if s not in solved]
    while pending:
        current = pending.pop()
        if current not in missing:
            missing.add(current)
            pending += [s for s in builds_on_of.get(current, []) if s not in solved]
    return sorted(missing, key=lambda s: (order.get(s, len(order)), s))


def chain_of(user, problem: Problem) -> list[Problem]:
    """``chain_to_solve`` for one student on one problem's page ([] for staff, who are never locked)."""
    if user.is_staff or not builds_on(problem):
        return []
    rows = list(Problem.objects.values_list("slug", "title", "path_order", "spec"))
    solved = solved_slugs(user) if user.is_authenticated else set()
    slugs = chain_to_solve(
        problem.slug,
        {slug: list((spec or {}).get("builds_on", [])) for slug, _, _, spec in rows},
        solved,
        {slug: order for slug, _, order, _ in rows},
    )
    titles = {slug: title for slug, title, _, _ in rows}
    return [Problem(slug=slug, title=titles.get(slug, slug)) for slug in slugs]


def solved_slugs(user) -> set[str]:
    """The problems this user solved, as far as they may know: a solve only by held Submits is not one yet."""
    firsts = list(
        accepted_submits()
        .filter(user=user)
        .order_by()
        .values_list("problem_id", "problem__slug")
        .annotate(first=Min("created_at"))
    )
    held = held_since(user, {problem_id for problem_id, _, _ in firsts})
    return {slug for problem_id, slug, first in firsts if solve_shown(problem_id, first, held)}


def latest_accepted(user, slug: str) -> Submission | None:
    """This user's latest accepted Submit of the problem ``slug`` whose grade they may see (its code is what they
    import)."""
    if not user.is_authenticated:
        return None
    problem_id = Problem.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if problem_id is None:
        return None
    return (
        accepted_submits()
        .filter(user=user, problem_id=problem_id)
        .filter(unheld(problem_id, held_since(user, [problem_id])))
        .select_related("problem")
        .order_by("-created_at", "-pk")
        .first()
    )


def prerequisites_of(user, problem: Problem) -> list[Prerequisite]:
    slugs = builds_on(problem)
    titles = dict(Problem.objects.filter(slug__in=slugs).values_list("slug", "title"))
    return [Prerequisite(slug, titles.get(slug, slug), latest_accepted(user, slug)) for slug in slugs]


def locked_reason(user, problem: Problem) -> str:
    """Why this user may not Run or Submit yet ("" when they may): an earlier problem is not solved."""
    if user.is_staff:
        return ""
    missing = [p.slug for p in prerequisites_of(user, problem) if p.solution is None]
    if not missing:
        return ""
    return (
        f"{problem.slug} builds on your own accepted solution{'s' if len(missing) > 1 else ''} of "
        f"{' and '.join(missing)}: solve {'them' if len(missing) > 1 else 'it'} first"
    )


def solved_solutions(user, problem: Problem) -> dict[str, Submission]:
    """slug -> this user's latest accepted submission, for every problem ``problem`` builds on, and what
    those build on in turn, each after what it imports: its code is what ``from solved import`` gives.
    Only this user's code."""
    modules: dict[str, Submission] = {}
    visiting: set[str] = set()

    def visit(slugs: list[str]) -> None:
        for slug in slugs:
            if slug in visiting:
                continue
            visiting.add(slug)
            solution = latest_accepted(user, slug)
            if solution is not None:
                visit(builds_on(solution.problem))
                modules[slug] = solution

    visit(builds_on(problem))
    return modules


def reference_code(slugs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """slug -> the published reference of each problem, for the gate; PackageError naming one not published."""
    rows = Problem.objects.filter(slug__in=slugs, published=True).values_list("slug", "solution_code", "spec")
    published = {slug: code for slug, code, _ in rows}
    misnamed = [
        f"{slug} (its function is {spec.get('function')!r})" for slug, _, spec in rows if spec.get("function") != slug
    ]
    if misnamed:
        raise PackageError(
            f"this problem builds on {', '.join(misnamed)}: `from solved import <slug>` needs the "
            "earlier problem's function to be named as its slug"
        )
    missing = [slug for slug in slugs if slug not in published]
    if missing:
        raise PackageError(
            f"this problem builds on {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'}"
            " not published: the gate runs the starter and the known-wrong solutions with the "
            "published references of the problems it builds on, so publish those first"
        )
    return {slug: published[slug] for slug in slugs}
