"""Names and Role Provisioning Services: the instructor pulls the LMS course's roster into the course here.

People are matched by (platform, sub) as in a launch; a new one gets an account they sign in to through the
LMS. Roles follow the LMS. Someone the LMS lists as inactive or deleted keeps their membership and work here
(their grades stay); they are counted, not removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from judge.courses.services import Enrolled, audit, enrol
from judge.lti.launches import role_of, user_for
from judge.lti.models import LtiContext
from judge.lti.tool import TimeoutSession, registration_of

NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


class RosterError(Exception):
    pass


@dataclass
class RosterSync:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    inactive: int = 0


def fetch_members(context: LtiContext) -> list[dict]:
    if not context.memberships_url:
        raise RosterError(
            "The LMS has not offered its roster service for this course (no memberships URL came "
            "with any launch). Check that the tool's Names and Role Provisioning option is on."
        )
    connector = ServiceConnector(registration_of(context.platform), requests_session=TimeoutSession())
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": context.memberships_url})
    try:
        return [dict(member) for member in service.get_members()]
    except Exception as failure:
        response = getattr(failure, "response", None)
        detail = f"it answered {response.status_code}" if response is not None else f"{type(failure).__name__}"
        raise RosterError(f"The LMS's roster could not be read ({detail}); nothing was changed.") from None


def sync_roster(context: LtiContext, by) -> RosterSync:
    members = fetch_members(context)  # before the transaction: no lock held while the LMS answers
    result = RosterSync()
    with transaction.atomic():
        for member in members:
            if not member.get("user_id"):
                continue
            if member.get("status", "Active") != "Active":
                result.inactive += 1
                continue
            user = user_for(context.platform, {**member, "sub": member["user_id"]})
            role = role_of(member.get("roles") or [])
            _, enrolled = enrol(context.course, user, role, by, f"LMS roster of {context.platform}")
            if enrolled == Enrolled.ADDED:
                result.added.append(user.username)
            elif enrolled == Enrolled.CHANGED:
                result.changed.append(user.username)
            else:
                result.unchanged += 1
        context.roster_synced_at = timezone.now()
        context.save(update_fields=["roster_synced_at"])
        audit(
            context.course,
            by,
            "lti-roster",
            f"LMS roster: {len(result.added)} added, {len(result.changed)} "
            f"changed, {result.unchanged} unchanged, {result.inactive} inactive",
        )
    return result
