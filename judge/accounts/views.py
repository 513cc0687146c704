from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from judge.submissions.queries import first_solves


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
    """Public: who the user is and what they solved. Never their code."""
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(request, "accounts/profile.html", {"person": person, "solved": first_solves(person)})
