from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from judge.accounts.devices import remember_device
from judge.accounts.limits import CountersUnavailable, Throttled, check_sign_in, check_signup, record_failed_sign_in
from judge.accounts.services import set_hidden_from_standings
from judge.exports import history
from judge.exports.history import SELECTIONS
from judge.exports.streaming import download
from judge.standings.progress import progress_of
from judge.submissions.reviews import review_queue
from judge.tokens.models import Scope
from judge.tokens.services import TokenRejected, create_token, live_tokens, revoke_token

JUST_MADE = "just_made"  # the session's key for a token just made, until the profile has shown it


def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST":
        try:
            check_signup(request, create=False)  # a refused address costs no password validation
            if form.is_valid():
                check_signup(request, create=True)
                return signed_up(request, form.save())
        except (Throttled, CountersUnavailable) as exc:
            return refused(request, "registration/signup.html", UserCreationForm(), "Not signed up", exc)
    return render(request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")})


def signed_up(request, user):
    login(request, user)
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect("problem-list")


def refused(request, template: str, form, what: str, exc: Exception):
    """The form again, empty, with why and when to try again: 429 over a limit, 503 without counters."""
    throttled = isinstance(exc, Throttled)
    response = render(
        request,
        template,
        {"form": form, "next": request.POST.get("next", ""), "refused": f"{what}: {exc}"},
        status=429 if throttled else 503,
    )
    response["Retry-After"] = str(exc.retry_after_s if isinstance(exc, Throttled) else 60)
    return response


class SignInView(LoginView):
    """Django's login, throttled per account (however its name is typed), per address and per known browser;
    a refused attempt never checks the password, and a successful one makes this browser known for the account."""

    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        try:
            self.attempt = check_sign_in(request, request.POST.get("username", ""))
            return super().post(request, *args, **kwargs)
        except (Throttled, CountersUnavailable) as exc:
            form = AuthenticationForm(initial={"username": request.POST.get("username", "")})
            return refused(request, "registration/login.html", form, "Not signed in", exc)

    def form_valid(self, form):
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user())
        return response

    def form_invalid(self, form):
        record_failed_sign_in(self.request, self.attempt)
        return super().form_invalid(form)


def profile(request, username: str, tokens: dict | None = None, status: int = 200):
    """Public: who the user is and what they solved, unless they hide it. Never their code.

    The owner also sees their access tokens (``tokens``: a new secret to show once, or why one was refused)."""
    person = get_object_or_404(get_user_model().objects.select_related("profile"), username=username, is_active=True)
    own = request.user.pk == person.pk
    hidden = getattr(getattr(person, "profile", None), "hide_from_standings", False)  # no profile: shown
    if hidden and not (own or request.user.is_staff):
        return render(request, "accounts/profile.html", {"person": person, "private": True})
    fresh = request.session.pop(JUST_MADE, None) if own else None
    if fresh:
        tokens = {"new_token": {"name": fresh["name"]}, "new_secret": fresh["secret"]}
    response = render(
        request,
        "accounts/profile.html",
        {
            "person": person,
            "own": own,
            "hidden": hidden,
            "progress": progress_of(person),
            "tokens": live_tokens(person) if own else [],
            "scopes": Scope.choices,
            "reviews": review_queue(person, timezone.now()) if own else None,
            **(tokens or {}),
        },
        status=status,
    )
    if fresh:
        response["Cache-Control"] = "no-store"  # the secret must not stay in a cache
    return response


@login_required
def own_profile(request):
    """Where the npjudge client sends a student whose token no longer works: their own profile's tokens."""
    return redirect(reverse("profile", args=[request.user.username]) + "#tokens")


@login_required
@require_POST
def token_create(request):
    """A new personal access token for the API and the npjudge client, its secret shown on this answer only."""
    try:
        token, secret = create_token(request.user, request.POST.get("name", ""), request.POST.getlist("scopes"))
    except TokenRejected as exc:
        return profile(request, request.user.username, {"token_error": str(exc)}, status=400)
    # Redirect after the POST, so a reload does not make a second token.  The secret rides in the session to the
    # profile, which shows it once and forgets it.
    request.session[JUST_MADE] = {"name": token.name, "secret": secret}
    return redirect(reverse("profile", args=[request.user.username]) + "#tokens")


@login_required
@require_POST
def token_revoke(request, pk: int):
    revoke_token(request.user, pk)
    return redirect("profile", request.user.username)


@login_required
@require_POST
def standings_privacy(request):
    """The profile's setting: whether public standings show the student's name or "anonymous"."""
    set_hidden_from_standings(request.user, request.POST.get("hide") == "on")
    return redirect("profile", request.user.username)


@login_required
def export_work(request):
    """ "Download my work": the signed-in student's Submits as a git repository in a zip, streamed."""
    selection = request.GET.get("only", "all")
    if selection not in SELECTIONS:
        return HttpResponseBadRequest(f"only= takes one of: {', '.join(SELECTIONS)}")
    return download(request, history.export_work(request.user, selection))
