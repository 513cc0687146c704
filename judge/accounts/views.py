from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from judge.accounts.services import is_hidden_from_standings, set_hidden_from_standings
from judge.leaderboard.progress import progress_of


def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        target = request.POST.get("next", "")
        if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
            return redirect(target)
        return redirect("problem-list")
    return render(request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")})


def profile(request, username: str):
    """Public: who the user is and what they solved, unless they hide it. Never their code."""
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    own = request.user.pk == person.pk
    hidden = is_hidden_from_standings(person)
    if hidden and not (own or request.user.is_staff):
        return render(request, "accounts/profile.html", {"person": person, "private": True})
    return render(request, "accounts/profile.html", {
        "person": person, "own": own, "hidden": hidden, "progress": progress_of(person)})


@login_required
@require_POST
def standings_privacy(request):
    """The profile's setting: whether public standings show the student's name or "anonymous"."""
    set_hidden_from_standings(request.user, request.POST.get("hide") == "on")
    return redirect("profile", request.user.username)
