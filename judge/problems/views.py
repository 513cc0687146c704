from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from judge.problems.models import Problem
from judge.problems.rendering import render_markdown


def get_problem_for_user(user, slug: str) -> Problem:
    """Published problems for everyone; drafts only for staff."""
    problems = Problem.objects.all() if user.is_staff else Problem.objects.filter(published=True)
    return get_object_or_404(problems, slug=slug)


def problem_list(request):
    problems = Problem.objects.filter(published=True)
    return render(request, "problems/list.html", {"problems": problems})


def problem_detail(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    submissions = []
    if request.user.is_authenticated:
        submissions = problem.submissions.filter(user=request.user)[:20]
    return render(request, "problems/detail.html", {
        "problem": problem,
        "statement_html": render_markdown(problem.statement_md),
        "theory_html": render_markdown(problem.theory_md),
        "submissions": submissions,
        "code": problem.starter_code,
    })
