from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse

from judge.leaderboard.models import ProblemTotals
from judge.leaderboard.ranking import marks_of, problem_totals
from judge.problems.composition import builds_on, locked_reason, prerequisites_of
from judge.learning.services import draft_code, revealed_hint_count
from judge.problems.models import Difficulty, Problem
from judge.problems.queries import get_problem_for_user
from judge.problems.rendering import render_markdown
from judge.submissions.custom import custom_fields
from judge.submissions.display import format_array, visible_case_data
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
        "solved_count": len(solved & {p.pk for p in problems}),
    })


def problem_detail(request, slug: str):
    return problem_page(request, get_problem_for_user(request.user, slug))


def problem_page(request, problem: Problem, code: str | None = None, error: str = "", status: int = 200,
                 custom_texts: dict[str, str] | None = None, custom_errors: dict[str, str] | None = None):
    """The problem page; also re-shown with ``error`` (and the custom input's) when a plain form post is refused."""
    user = request.user
    shown = revealed_hint_count(user, problem)
    return render(request, "problems/detail.html", {
        "problem": problem,
        "click_key": uuid.uuid4(),  # without JavaScript, one per page: a resent form is the same click
        "statement_html": render_markdown(problem.statement_md),
        "theory_html": render_markdown(problem.theory_md) if problem.theory_md else "",
        "hints_html": [render_markdown(hint) for hint in problem.hints[:shown]],
        "hints_left": len(problem.hints) - shown,
        "examples": visible_examples(problem),
        "submissions": history(user, problem) if user.is_authenticated else [],
        "code": draft_code(user, problem) if code is None else code,
        "error": error,
        # Earlier problems whose accepted solutions this one imports, and whether that locks it for now.
        "prerequisites": prerequisites_of(user, problem) if builds_on(problem) else [],
        "locked": locked_reason(user, problem) if builds_on(problem) else "",
        # The custom-input form (``judge/submissions/custom.py``): prefilled from the first visible example.
        "custom_fields": custom_fields(problem, custom_texts, custom_errors) if user.is_authenticated else [],
        "custom_whole_form": (custom_errors or {}).get("", ""),
        "custom_open": custom_errors is not None,
        "custom_available": bool(problem.solution_code.strip()),
    }, status=status)


def visible_examples(problem: Problem) -> list[dict]:
    return [] if problem.current_test_set_id is None else _examples(problem.current_test_set_id)


@functools.lru_cache(maxsize=256)
def _examples(test_set_id: int) -> list[dict]:
    """The visible tests, formatted once: a test set never changes after it is made."""
    cases = visible_case_data(test_set_id)
    return [{"name": name, "inputs": [format_array(k, v) for k, v in inputs.items()],
             "expected": format_array("expected", expected)} for name, (inputs, expected) in cases.items()]


@login_required
def problem_history(request, slug: str):
    """The Submissions tab, refreshed each time it is opened."""
    problem = get_problem_for_user(request.user, slug)
    return render(request, "problems/_history.html", {"submissions": history(request.user, problem)})
