"""Changing how this site trusts LMSs: platforms registered, changed or removed, each with its audit row.

The LTI pages and the admin both come here (the tool's keys: ``judge.lti.keys``), so no path changes a
platform without leaving a ``SetupAudit`` row that says who and what.
"""

from __future__ import annotations

from django.db import transaction

from judge.lti.models import Platform, SetupAudit


def audit(by, action: str, summary: str) -> None:
    SetupAudit.objects.create(user=by, action=action, summary=summary[:1000])


def save_platform(platform: Platform, by, changed: list[str], created: bool) -> Platform:
    """Store a platform as a form (the page's or the admin's) left it; ``changed``: the fields it changed."""
    with transaction.atomic():
        platform.save()
        if created:
            audit(
                by, "platform-added", f"{platform} registered: issuer {platform.issuer}, client id {platform.client_id}"
            )
        elif changed:
            audit(
                by,
                "platform-changed",
                f"{platform}: {', '.join(changed)} changed{'' if platform.enabled else ' (disabled)'}",
            )
    return platform


def delete_platform(platform: Platform, by) -> None:
    with transaction.atomic():
        audit(by, "platform-removed", f"{platform} removed (issuer {platform.issuer}, client id {platform.client_id})")
        platform.delete()
