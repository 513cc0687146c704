"""LTI 1.3 endpoints (/lti/jwks/, /lti/login/, /lti/launch/, deep linking) and the pages that manage them:
staff register platforms and rotate the tool's key; an instructor sees their course's scores and roster.

The protocol is PyLTI1p3's (its Django adapter); the launch state and nonce live in the cache
(``DjangoCacheDataStorage``), not in the session, so a launch works in an LMS frame whose browser withholds the
site's own cookies; the state cookie it sets is SameSite=None; Secure over HTTPS.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import cast
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST
from pylti1p3.contrib.django import DjangoOIDCLogin
from pylti1p3.contrib.django.launch_data_storage.cache import DjangoCacheDataStorage
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.lineitem import LineItem

from judge.courses.access import CHANGE, get_course_for_user, role_in
from judge.courses.models import Assignment, Course, Role
from judge.lti import keys, roster, scores, setup
from judge.lti.forms import PlatformForm
from judge.lti.launches import CLAIM, LaunchRefused, RelinkError, accept_launch, relink_context
from judge.lti.models import LtiContext, LtiLink, Platform, ScorePost, ScoreStatus, ToolKey
from judge.lti.tool import CLOCK_SKEW_S, TimeoutSession, ToolConf, ToolMessageLaunch
from judge.problems.models import Problem

BLAME_THE_LINK = "Open the assignment from your LMS again; if this keeps happening, tell your instructor."


def refuse(request, message: str, status: int = 403):
    return render(request, "lti/refused.html", {"message": message, "advice": BLAME_THE_LINK}, status=status)


def refusal_for(error: Exception, conf: ToolConf) -> str:
    """The library's reason, in words a student or an LMS administrator can act on."""
    text = str(error)
    if conf.refusal == "disabled" and conf.platform is not None:
        return f"Launches from {conf.platform.name} are turned off on this site (the platform was disabled)."
    if "Registration not found" in text or "Could not find registration" in text:
        return (
            "No platform is registered here with the issuer and client id (audience) of this launch, so it "
            "is not trusted. An administrator registers the LMS under LMS platforms."
        )
    if "Unable to find deployment" in text:
        return "This launch comes from a deployment of the tool that is not registered here."
    if "cookie" in text:  # "Missing cookie session-id": the login set it, this browser did not send it back
        return (
            "Your browser did not send this tool's cookie with the launch (browsers often block a site's "
            "cookies inside an LMS page). Open the tool in a new window, or allow this site's cookies."
        )
    if "State not found" in text or "Missing state" in text:
        return (
            "This launch's state does not match a sign-in started from this browser (it may have been "
            "started elsewhere, or taken too long)."
        )
    if "Nonce" in text or '"nonce"' in text:
        return "This launch's nonce is unknown or expired: the launch was not started here, or too long ago."
    if "expired" in text:
        return (
            f"This launch has expired (its id_token is more than {CLOCK_SKEW_S} s past its expiry time by "
            "this site's clock)."
        )
    if "not yet valid" in text:
        return (
            f"This launch's id_token is dated more than {CLOCK_SKEW_S} s in the future by this site's clock; "
            "the LMS's clock or the token is wrong."
        )
    if "Signature verification failed" in text or "Unable to find public key" in text or "decode" in text:
        return "This launch's signature does not verify against the platform's published keys."
    return f"This launch is not valid: {text[:200]}"


def launch_url(request) -> str:
    return request.build_absolute_uri(reverse("lti-launch"))


@require_GET
def jwks(request):
    return JsonResponse(keys.key_set())


def inline_hashes(page: str) -> dict[str, list[str]]:
    """CSP hashes of a page's inline <script> and <style> blocks: the library's cookie check page is one
    page of inline code, allowed exactly as it is and nothing else."""
    found = {}
    for tag, directive in (("script", "script-src"), ("style", "style-src")):
        blocks = re.findall(rf"<{tag}[^>]*>(.*?)</{tag}>", page, flags=re.DOTALL)
        found[directive] = [
            f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in blocks
        ]
    return found


@csrf_exempt
def oidc_login(request):
    """Third-party initiated login: the LMS sends the browser here, we send it back with a state and nonce.

    First the library's cookie check: a page that sees whether this (possibly framed) browser keeps our
    cookies, and if it does not, offers to open the tool in a new tab, where it does."""
    conf = ToolConf()
    oidc = DjangoOIDCLogin(request, conf, launch_data_storage=DjangoCacheDataStorage()).enable_check_cookies(
        main_msg="Your browser does not let this tool keep cookies inside the LMS page.",
        click_msg="Open it in a new tab.",
        loading_msg="Opening…",
    )
    try:
        response = oidc.redirect(
            request.POST.get("target_link_uri") or request.GET.get("target_link_uri") or launch_url(request)
        )
    except (OIDCException, LtiException) as error:
        return refuse(request, refusal_for(error, conf), status=400)
    if response.status_code == 200:  # the cookie check page
        response._csp_update = inline_hashes(response.content.decode())
    return response


@csrf_exempt
@require_POST
def launch(request):
    conf = ToolConf()
    try:  # over HTTPS the library reads its session cookie as it is built: its absence is a refusal too
        message = ToolMessageLaunch(
            request, conf, launch_data_storage=DjangoCacheDataStorage(), requests_session=TimeoutSession()
        )
        claims = message.get_launch_data()
        accepted = accept_launch(conf.platform, claims)
    except LtiException as error:
        return refuse(request, refusal_for(error, conf))
    except LaunchRefused as refusal:
        return refuse(request, refusal.message)
    login(request, accepted.user, backend="django.contrib.auth.backends.ModelBackend")
    if accepted.deep_linking:
        return redirect("lti-deep-link", message.get_launch_id())
    link = accepted.link
    if link is not None and link.assignment_id:
        return redirect("assignment-detail", accepted.course.pk, link.assignment_id)
    if link is not None and link.problem_id:
        return redirect("problem-detail", link.problem.slug)
    return redirect("course-home", accepted.course.pk)


def cached_launch(request, launch_id: str) -> tuple[ToolMessageLaunch, LtiContext]:
    """A deep linking launch this instructor made, from the cache (its nonce is spent already)."""
    conf = ToolConf()
    try:
        message = cast(
            ToolMessageLaunch,
            ToolMessageLaunch.from_cache(launch_id, request, conf, launch_data_storage=DjangoCacheDataStorage()),
        )
    except LtiException:
        raise Http404("This deep linking session has expired; add the tool again from the LMS.") from None
    # Its registration was found again: conf.platform is the launch's platform.
    claims = cast(dict, message.get_launch_data())
    context = get_object_or_404(
        LtiContext, platform=conf.platform, context_id=(claims.get(CLAIM + "context") or {}).get("id")
    )
    if role_in(request.user, context.course) != Role.INSTRUCTOR:
        raise PermissionDenied("Only the course's instructor picks what the LMS links to.")
    return message, context


@login_required
def deep_link(request, launch_id: str):
    message, context = cached_launch(request, launch_id)
    assignments = Assignment.objects.filter(course=context.course).prefetch_related("items")
    problems = Problem.objects.filter(published=True, assignments__course=context.course).distinct()
    if request.method != "POST":
        return render(
            request, "lti/deep_link.html", {"course": context.course, "assignments": assignments, "problems": problems}
        )
    assignment = assignments.filter(pk=request.POST.get("assignment") or 0).first()
    problem = problems.filter(slug=request.POST.get("problem") or "").first() if assignment is None else None
    target = assignment or problem
    if target is None:
        messages.error(request, "Choose one of the course's assignments, or one problem.")
        return redirect("lti-deep-link", launch_id)
    resource = DeepLinkResource().set_url(launch_url(request)).set_title(target.title)
    if assignment is not None:  # an assignment has points, so a gradebook column
        resource.set_custom_params({"assignment": str(assignment.pk)}).set_lineitem(
            LineItem()
            .set_score_maximum(float(assignment.items.count()))
            .set_label(assignment.title)
            .set_resource_id(f"assignment-{assignment.pk}")
        )
    elif problem is not None:
        resource.set_custom_params({"problem": problem.slug})
    return_url = message.get_launch_data()["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"][
        "deep_link_return_url"
    ]
    response = render(
        request,
        "lti/deep_link_return.html",
        {
            "return_url": return_url,
            "jwt": message.get_deep_link().get_response_jwt([resource]),
            "title": target.title,
            "platform": context.platform,
        },
    )
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(return_url))
    # This one form goes back to the LMS: django-csp reads the attribute.
    response._csp_update = {"form-action": [origin]}  # type: ignore[attr-defined]
    return response


# --- Staff: platforms and keys -------------------------------------------------------------------------------


def staff_only(request) -> None:
    if not request.user.is_staff:
        raise PermissionDenied("Only site staff register LMS platforms.")


def tool_values(request) -> list[tuple[str, str]]:
    """What the LMS administrator pastes into the LMS."""
    build = request.build_absolute_uri
    return [
        ("Tool URL / Target link URI / Redirect URI", launch_url(request)),
        ("OpenID Connect login initiation URL", build(reverse("lti-login"))),
        ("Public keyset URL (JWKS)", build(reverse("lti-jwks"))),
        ("Deep linking URL", launch_url(request)),
        ("Domain", request.get_host()),
    ]


@login_required
def platforms(request):
    staff_only(request)
    form = PlatformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        platform = setup.save_platform(form.save(commit=False), request.user, form.changed_data, created=True)
        messages.success(request, f"{platform.name} is registered; paste the values above into it.")
        return redirect("lti-platform", platform.pk)
    keys.signing_key()
    return render(
        request,
        "lti/platforms.html",
        {
            "platforms": Platform.objects.all(),
            "form": form,
            "values": tool_values(request),
            "keys": ToolKey.objects.all(),
            "signing": keys.signing_key(),
        },
    )


@login_required
def platform_detail(request, pk: int):
    staff_only(request)
    platform = get_object_or_404(Platform, pk=pk)
    form = PlatformForm(request.POST or None, instance=platform)
    if request.method == "POST" and form.is_valid():
        setup.save_platform(form.save(commit=False), request.user, form.changed_data, created=False)
        messages.success(request, f"{platform.name} is saved.")
        return redirect("lti-platform", platform.pk)
    return render(request, "lti/platform.html", {"platform": platform, "form": form, "values": tool_values(request)})


@login_required
@require_POST
def key_action(request):
    staff_only(request)
    action = request.POST.get("action")
    try:
        if action == "new":
            key = keys.new_key(request.user)
            messages.success(request, f"Key {key.kid[:12]}… is published; it signs once you activate it.")
        else:
            key = get_object_or_404(ToolKey, pk=request.POST.get("key") or 0)
            if action == "activate":
                keys.activate_key(key, by=request.user)
            else:
                keys.retire_key(key, by=request.user)
            messages.success(request, f"Key {key.kid[:12]}… is {'signing' if action == 'activate' else 'retired'}.")
    except keys.KeyRotationError as error:
        messages.error(request, str(error))
    return redirect("lti-platforms")


# --- Instructor: the course's LMS side -----------------------------------------------------------------------


@login_required
def course_lti(request, course_pk: int):
    course, role = get_course_for_user(request.user, course_pk, CHANGE)
    contexts = LtiContext.objects.filter(course=course).select_related("platform")
    links = LtiLink.objects.filter(context__course=course).select_related("assignment", "context")
    rows = (
        ScorePost.objects.filter(link__context__course=course)
        .select_related("user", "link__assignment")
        .order_by("status", "user__username")
    )
    others = Course.objects.filter(memberships__user=request.user, memberships__role=Role.INSTRUCTOR).exclude(
        pk=course.pk
    )
    return render(
        request,
        "lti/course.html",
        {
            "course": course,
            "role": role,
            "contexts": contexts,
            "links": links,
            "rows": rows,
            "others": others,
            "failed": sum(1 for r in rows if r.status == ScoreStatus.FAILED),
        },
    )


@login_required
@require_POST
def relink(request, course_pk: int):
    course, _ = get_course_for_user(request.user, course_pk, CHANGE)
    context = get_object_or_404(LtiContext, course=course, pk=request.POST.get("context") or 0)
    target = Course.objects.filter(pk=request.POST.get("course") or 0).first()
    if target is None:
        messages.error(request, "Choose one of your courses.")
        return redirect("lti-course", course.pk)
    try:
        moved = relink_context(context, target, request.user)
    except RelinkError as error:
        messages.error(request, str(error))
        return redirect("lti-course", course.pk)
    messages.success(
        request,
        f"{context} now opens {target}; {moved} people from the LMS were added to it. "
        "Link its assignments again from the LMS (deep linking).",
    )
    return redirect("lti-course", target.pk)


@login_required
@require_POST
def send_again(request, course_pk: int):
    course, _ = get_course_for_user(request.user, course_pk, CHANGE)
    ids = [int(i) for i in request.POST.getlist("score") if i.isdigit()]
    if not ids:
        ids = list(
            ScorePost.objects.filter(link__context__course=course, status=ScoreStatus.FAILED).values_list(
                "pk", flat=True
            )
        )
    count = scores.send_again(ids, course.pk)
    messages.success(request, f"{count} score{'s' if count != 1 else ''} will be sent again.")
    return redirect("lti-course", course.pk)


@login_required
@require_POST
def sync_roster(request, course_pk: int):
    course, _ = get_course_for_user(request.user, course_pk, CHANGE)
    context = get_object_or_404(LtiContext, course=course, pk=request.POST.get("context") or 0)
    try:
        result = roster.sync_roster(context, request.user)
    except roster.RosterError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            f"Roster from {context.platform.name}: {len(result.added)} added, "
            f"{len(result.changed)} changed role, {result.unchanged} unchanged, "
            f"{result.inactive} inactive in the LMS (kept here).",
        )
    return redirect("lti-course", course.pk)
