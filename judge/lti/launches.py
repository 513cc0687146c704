"""What a validated launch does here: who the person is, which course, which role, which assignment.

Nothing is written unless the launch is accepted, and then all of it in one transaction: the nonce (a second
launch with it is a replay), the site user for (platform, sub), the course for the LMS context (created on the
first instructor launch), the membership with the LMS role, and the resource link with its line item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from judge.courses import services as course_services
from judge.courses.models import Assignment, Course, Membership, Role
from judge.lti import scores
from judge.lti.models import LtiContext, LtiLink, LtiUser, Platform, UsedNonce
from judge.problems.models import Problem

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
DEEP_LINKING = "LtiDeepLinkingRequest"
INSTRUCTOR_ROLES = (
    "membership#Instructor",
    "membership#Administrator",
    "institution/person#Administrator",
    "system/person#Administrator",
    "membership#ContentDeveloper",
)
TA_ROLES = ("membership/Instructor#TeachingAssistant", "membership#Mentor")


class LaunchRefused(Exception):
    """A launch that is refused; ``message`` is what the person reads."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass
class Launch:
    user: object
    course: Course
    role: str
    context: LtiContext
    link: LtiLink | None
    deep_linking: bool


def role_of(roles: list[str]) -> str:
    """The LMS's role URIs, mapped onto ours; anyone neither teaching nor assisting is a student."""
    if any(r.endswith(INSTRUCTOR_ROLES) for r in roles) and not any(r.endswith(TA_ROLES) for r in roles):
        return Role.INSTRUCTOR
    if any(r.endswith(TA_ROLES) for r in roles):
        return Role.TA
    return Role.STUDENT


def new_username(claims: dict) -> str:
    """A readable, unique username for a new person; it identifies nobody (the (platform, sub) pair does)."""
    base = claims.get("given_name") or claims.get("name") or (claims.get("email") or "").split("@")[0] or "learner"
    base = re.sub(r"[^\w.+-]", "", base.lower())[:20] or "learner"
    users, name, n = get_user_model().objects, base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


def user_for(platform: Platform, claims: dict):
    identity = LtiUser.objects.filter(platform=platform, sub=claims["sub"]).select_related("user").first()
    if identity is not None:
        return identity.user
    user = get_user_model().objects.create_user(new_username(claims), email=claims.get("email", ""))
    user.set_unusable_password()  # they sign in through their LMS
    user.first_name, user.last_name = claims.get("given_name", "")[:150], claims.get("family_name", "")[:150]
    user.save()
    LtiUser.objects.create(platform=platform, sub=claims["sub"], user=user)
    return user


def context_for(platform: Platform, claims: dict, role: str, user) -> LtiContext:
    lms = claims.get(CLAIM + "context") or {}
    if not lms.get("id"):
        raise LaunchRefused("The LMS sent no course (context) with this launch; open the link from inside a course.")
    context = LtiContext.objects.filter(platform=platform, context_id=lms["id"]).select_related("course").first()
    if context is None:
        if role != Role.INSTRUCTOR:
            raise LaunchRefused(
                "This LMS course is not set up here yet: its instructor opens the tool from the "
                "LMS once first. Nothing was created; try again after they have."
            )
        course = course_services.create_course(user, lms.get("title") or lms.get("label") or "LMS course")
        context = LtiContext.objects.create(
            platform=platform, context_id=lms["id"], course=course, deployment_id=claims[CLAIM + "deployment_id"]
        )
    context.title = (lms.get("title") or lms.get("label") or "")[:255]
    ags, nrps = claims.get(AGS) or {}, claims.get(NRPS) or {}
    context.lineitems_url = ags.get("lineitems", context.lineitems_url)
    context.ags_scopes = ags.get("scope", context.ags_scopes)
    context.memberships_url = nrps.get("context_memberships_url", context.memberships_url)
    context.save()
    return context


def link_for(context: LtiContext, claims: dict) -> LtiLink | None:
    resource = claims.get(CLAIM + "resource_link") or {}
    if not resource.get("id"):
        return None
    link, _ = LtiLink.objects.get_or_create(context=context, resource_link_id=resource["id"])
    before = (link.lineitem_url, link.assignment_id)
    custom = claims.get(CLAIM + "custom") or {}
    if str(custom.get("assignment", "")).isdigit():
        link.assignment = Assignment.objects.filter(pk=int(custom["assignment"]), course=context.course).first()
    if custom.get("problem"):
        link.problem = Problem.objects.filter(slug=str(custom["problem"]), published=True).first()
    link.lineitem_url = (claims.get(AGS) or {}).get("lineitem", link.lineitem_url)
    link.save()
    scores.link_ready(link, before)
    return link


@transaction.atomic
def accept_launch(platform: Platform, claims: dict) -> Launch:
    """Everything a validated launch changes, or LaunchRefused and nothing changed."""
    try:
        with transaction.atomic():
            UsedNonce.objects.create(platform=platform, nonce=claims["nonce"])
    except IntegrityError:
        raise LaunchRefused(
            "This launch was already used (its nonce was seen before): a launch works once. "
            "Open the link from your LMS again."
        ) from None
    role = role_of(claims.get(CLAIM + "roles") or [])
    user = user_for(platform, claims)
    context = context_for(platform, claims, role, user)
    course_services.enrol(context.course, user, role, how=f"LMS launch from {platform}")  # the LMS says who teaches
    deep = claims.get(CLAIM + "message_type") == DEEP_LINKING
    return Launch(user, context.course, role, context, None if deep else link_for(context, claims), deep)


class RelinkError(Exception):
    pass


@transaction.atomic
def relink_context(context: LtiContext, course: Course, by) -> int:
    """Point an LMS course at another course of ours (one the same person teaches): the LMS's people follow with
    their roles; links opened the old course's assignments, so they open the course until linked again.
    Returns how many people came along."""
    teaches = Membership.objects.filter(user=by, role=Role.INSTRUCTOR)
    if not teaches.filter(course=context.course).exists() or not teaches.filter(course=course).exists():
        raise RelinkError("You can link the LMS course only to a course you teach here, from one you teach.")
    if course == context.course:
        raise RelinkError(f"The LMS course is linked to {course} already.")
    old = context.course
    people = Membership.objects.filter(course=old, user__lti_identities__platform=context.platform)
    moved = 0
    for member in people.select_related("user"):
        _, enrolled = course_services.enrol(
            course, member.user, member.role, by, f"LMS course linked from {old}", keep_role=True
        )
        moved += enrolled == course_services.Enrolled.ADDED
    context.course = course
    context.save(update_fields=["course"])
    context.links.update(assignment=None)
    course_services.audit(
        course,
        by,
        "lti-link",
        f"LMS course {context} ({context.platform}) linked here from {old}; {moved} people added",
    )
    return moved
