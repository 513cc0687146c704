from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from judge.learning.services import DraftRejected, reset_draft, reveal_next_hint, save_code_draft
from judge.problems.queries import get_problem_for_user
from judge.problems.rendering import render_markdown


@login_required
@require_POST
def draft_save(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    try:
        draft = save_code_draft(request.user, problem, request.POST.get("code", ""))
    except DraftRejected as exc:
        return JsonResponse({"saved": False, "error": str(exc)}, status=400)
    return JsonResponse({"saved": True, "at": draft.updated_at.isoformat()})


@login_required
@require_POST
def draft_reset(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    return JsonResponse({"code": reset_draft(request.user, problem)})


@login_required
@require_POST
def hint_reveal(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    shown = reveal_next_hint(request.user, problem)
    return render(request, "problems/_hints.html", {
        "problem": problem,
        "hints_html": [render_markdown(hint) for hint in problem.hints[:shown]],
        "hints_left": len(problem.hints) - shown,
    })
