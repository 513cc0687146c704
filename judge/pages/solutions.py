"""Published solutions: the list for a problem, one solution with its highlighted code, the change from the
reader's own accepted solution, and the forms that publish, withdraw, vote and moderate.  Who reads what is
``judge.solutions.access``'s to say; each form calls one service."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from judge.display.diffs import code_diff
from judge.display.highlight import highlighted
from judge.problems.queries import get_problem_for_user
from judge.solutions import services
from judge.solutions.access import get_solution_for_user, reading
from judge.solutions.models import PublishedSolution, Vote
from judge.solutions.queries import ORDERS, own_accepted, solutions_for
from judge.submissions.queries import get_submission_for_user


def solution_list(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    access = reading(request.user, problem, timezone.now())
    order = request.GET.get("order") if request.GET.get("order") in ORDERS else "speed"
    return render(
        request,
        "solutions/list.html",
        {
            "problem": problem,
            "access": access,
            "order": order,
            "orders": ORDERS,
            "rows": solutions_for(problem, request.user, order) if access.allowed else [],
        },
        status=200 if access.allowed else 403,
    )


def solution_detail(request, slug: str, pk: int):
    return detail_page(request, solution_of(request, slug, pk))


def detail_page(request, solution: PublishedSolution, error: str = "", status: int = 200):
    reader = request.user
    mine = (
        list(own_accepted(reader, solution.problem).exclude(pk=solution.submission_id)[:20])
        if reader.is_authenticated
        else []
    )
    return render(
        request,
        "solutions/detail.html",
        {
            "solution": solution,
            "problem": solution.problem,
            "code_html": highlighted(solution.submission.code),
            "votes": solution.votes.count(),
            "own": solution.user_id == reader.pk,
            "voted": reader.is_authenticated and Vote.objects.filter(solution=solution, user=reader).exists(),
            "mine": mine,
            "moderation": solution.moderation.all() if reader.is_staff else [],
            "error": error,
        },
        status=status,
    )


def solution_diff(request, slug: str, pk: int):
    """From the reader's own accepted solution (the newest, or ``?mine=``) to this one."""
    solution = solution_of(request, slug, pk)
    accepted = own_accepted(request.user, solution.problem) if request.user.is_authenticated else None
    if accepted is None or not accepted.exists():
        raise Http404("You have no accepted solution of this problem to compare with.")
    chosen = request.GET.get("mine", "")
    mine = accepted.filter(pk=int(chosen)).first() if chosen.isdigit() else accepted.first()
    if mine is None:
        raise Http404("That is not one of your accepted solutions of this problem.")
    return render(
        request,
        "solutions/diff.html",
        {
            "solution": solution,
            "problem": solution.problem,
            "mine": mine,
            "lines": code_diff(mine, solution.submission),
        },
    )


def solution_of(request, slug: str, pk: int) -> PublishedSolution:
    solution = get_solution_for_user(request.user, pk, timezone.now())
    if solution.problem.slug != slug:
        raise Http404("No such solution.")
    return solution


@login_required
@require_POST
def publish(request, pk: int):
    submission = get_submission_for_user(request.user, pk)
    try:
        services.publish_solution(request.user, submission)
    except services.SolutionError as error:
        return render(request, "solutions/refused.html", {"error": error, "submission": submission}, status=400)
    return redirect(reverse("submission-detail", args=[pk]) + "#publication")


@login_required
@require_POST
def withdraw(request, pk: int):
    solution = get_object_or_404(PublishedSolution, pk=pk, user=request.user)
    services.withdraw_solution(request.user, solution)
    return redirect(reverse("submission-detail", args=[solution.submission_id]) + "#publication")


@login_required
@require_POST
def vote(request, pk: int):
    solution = get_solution_for_user(request.user, pk, timezone.now())
    try:
        services.vote(request.user, solution, up=request.POST.get("vote") != "withdraw")
    except services.SolutionError as error:
        return detail_page(request, solution, str(error), status=400)
    return redirect(reverse("solution-detail", args=[solution.problem.slug, pk]))


@login_required
@require_POST
def moderate(request, pk: int):
    if not request.user.is_staff:
        raise Http404("No such page.")
    solution = get_solution_for_user(request.user, pk, timezone.now())
    try:
        if request.POST.get("action") == "show":
            services.show_solution(request.user, solution)
        else:
            services.hide_solution(request.user, solution, request.POST.get("reason", ""))
    except services.SolutionError as error:
        return detail_page(request, solution, str(error), status=400)
    return redirect(reverse("solution-detail", args=[solution.problem.slug, pk]))
