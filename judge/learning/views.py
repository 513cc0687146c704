from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from judge.learning.preferences import PreferencesForm, preferences_of, save_preferences
from judge.learning.services import (
    DraftRejected,
    NoteRejected,
    reset_draft,
    reveal_next_hint,
    save_code_draft,
    save_note,
    set_bookmark,
)
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
    return render(
        request,
        "problems/_hints.html",
        {
            "problem": problem,
            "hints_html": [render_markdown(hint) for hint in problem.hints[:shown]],
            "hints_left": len(problem.hints) - shown,
        },
    )


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def note_save(request, slug: str):
    """The note tab's autosave (JSON, with the note as the page shows it), or its form without JavaScript."""
    problem = get_problem_for_user(request.user, slug)
    try:
        text = save_note(request.user, problem, request.POST.get("text", ""))
    except NoteRejected as exc:
        if wants_json(request):
            return JsonResponse({"saved": False, "error": str(exc)}, status=400)
        return HttpResponseBadRequest(f"Note not saved: {exc}")
    if wants_json(request):
        return JsonResponse({"saved": True, "html": render_markdown(text) if text else ""})
    return redirect(reverse("problem-detail", args=[slug]) + "#notes")


@login_required
@require_POST
def bookmark_set(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    on = set_bookmark(request.user, problem, request.POST.get("on") == "1")
    if request.headers.get("HX-Request") == "true":
        return render(request, "problems/_bookmark.html", {"problem": problem, "bookmarked": on})
    return redirect("problem-detail", slug)


@require_http_methods(["GET", "POST"])
def settings_page(request):
    """Everyone's settings page: a signed-in student's are kept on the server (redirect after the POST); a visitor's
    stay in their browser (prefs.js saves the same form there)."""
    if request.method == "POST" and request.user.is_authenticated:
        form = save_preferences(request.user, request.POST)
        if form.is_valid():
            return redirect(reverse("settings") + "?saved=1")
        status = 400
    else:
        form, status = PreferencesForm(initial=preferences_of(request.user)), 200
    return render(
        request,
        "learning/settings.html",
        {
            "form": form,
            "saved": "saved" in request.GET,
            "kept_nowhere": request.method == "POST" and not request.user.is_authenticated,
        },
        status=status,
    )
