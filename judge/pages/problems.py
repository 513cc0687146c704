from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse

from judge.leaderboard.models import ProblemTotals
from judge.leaderboard.ranking import marks_of, problem_totals
from judge.pages.problem_page import problem_page
from judge.problems.models import Difficulty, Problem
from judge.problems.queries import get_problem_for_user, problems_being_prepared
from judge.submissions.queries import history

LIST_FIELDS = ("slug", "title", "summary", "difficulty", "tags", "path_order")


@dataclass
class ListedProblem:
    """One row of the list, flattened so that rendering 100 rows stays cheap."""

    position: int
    slug: str
    url: str
    title: str
    summary: str
    difficulty: str
    difficulty_label: str
    tags: list[str]
    acceptance: str  # "67%", or "" before any graded submit
    solvers: int
    mark: str  # solved | attempted | ""


def listed(problem: Problem, position: int, stats: ProblemTotals, mark: str, url_prefix: str) -> ListedProblem:
    rate = stats.acceptance_rate
    return ListedProblem(position, problem.slug, f"{url_prefix}{problem.slug}/", problem.title, problem.summary,
                         problem.difficulty, problem.get_difficulty_display(), problem.tags,
                         "" if rate is None else f"{round(rate * 100)}%", stats.solvers, mark)


def matches(problem: Problem, query: str, tag: str, difficulty: str) -> bool:
    if tag and tag not in problem.tags:
        return False
    if difficulty and problem.difficulty != difficulty:
        return False
    haystack = " ".join([problem.title, problem.summary, problem.slug, *problem.tags]).lower()
    return all(word in haystack for word in query.lower().split())


def problem_list(request):
    query, tag, difficulty = (request.GET.get(k, "").strip() for k in ("q", "tag", "difficulty"))
    problems = list(Problem.objects.filter(published=True).only(*LIST_FIELDS))  # ordered by the learning path
    stats = problem_totals()  # kept with the verdicts: no aggregate over submissions, no cache
    solved, attempted = marks_of(request.user)
    url_prefix = reverse("problem-detail", args=["slug"]).removesuffix("slug/")
    rows = [
        listed(p, position, stats.get(p.pk) or ProblemTotals(),
               "solved" if p.pk in solved else "attempted" if p.pk in attempted else "", url_prefix)
        for position, p in enumerate(problems, start=1) if matches(p, query, tag, difficulty)
    ]
    return render(request, "problems/list.html", {
        "listed": rows, "total": len(problems), "query": query, "tag": tag, "difficulty": difficulty,
        "tags": sorted({t for p in problems for t in p.tags}), "difficulties": Difficulty.choices,
        "solved_count": len(solved & {p.pk for p in problems}), "preparing": problems_being_prepared(),
    })


def problem_detail(request, slug: str):
    return problem_page(request, get_problem_for_user(request.user, slug))


@login_required
def problem_history(request, slug: str):
    """The Submissions tab, refreshed each time it is opened."""
    problem = get_problem_for_user(request.user, slug)
    return render(request, "problems/_history.html", {"submissions": history(request.user, problem)})
