"""Each person reads dates in their own time zone; the database keeps UTC.

Audit rows are text written once and read by people in many zones: a moment in them is written in UTC as
``stamp`` writes it, and ``local_times`` shows every such moment (and the ``str(datetime)`` of rows written
before, whatever their offset) in the reader's zone, in the one format ``shown`` uses."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime

from django.utils import timezone

from judge.courses.models import TimeZoneChoice

# Offered first, west to east: where most of a class reads from. Every other zone follows, by name.
COMMON = (
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Denver",
    "America/Phoenix",
    "America/Chicago",
    "America/Mexico_City",
    "America/New_York",
    "America/Bogota",
    "America/Toronto",
    "America/Halifax",
    "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires",
    "UTC",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Africa/Lagos",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Amsterdam",
    "Europe/Warsaw",
    "Africa/Johannesburg",
    "Africa/Cairo",
    "Europe/Athens",
    "Europe/Kyiv",
    "Europe/Istanbul",
    "Africa/Nairobi",
    "Europe/Moscow",
    "Asia/Dubai",
    "Asia/Karachi",
    "Asia/Kolkata",
    "Asia/Dhaka",
    "Asia/Bangkok",
    "Asia/Jakarta",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Taipei",
    "Asia/Seoul",
    "Asia/Tokyo",
    "Australia/Perth",
    "Australia/Sydney",
    "Pacific/Auckland",
)
SHOWN = "%Y-%m-%d %H:%M"
# A moment with its offset: 2026-03-02T17:00Z (stamp) or 2026-03-02 18:00:00+01:00 (str of an aware datetime).
MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})")


def zone_names() -> list[str]:
    """Every zone a person may choose: the common ones first, then the rest by name."""
    rest = sorted(zoneinfo.available_timezones() - set(COMMON))
    return [name for name in COMMON if name in zoneinfo.available_timezones()] + rest


def zone_named(text: str) -> str | None:
    """The zone ``text`` names, read as people type it ("europe/paris", "America/New York"), or None."""
    wanted = text.strip().replace(" ", "_").lower()
    return next((name for name in zoneinfo.available_timezones() if name.lower() == wanted), None)


def utc_offset(name: str) -> str:
    offset = timezone.now().astimezone(zoneinfo.ZoneInfo(name)).strftime("%z")
    return f"UTC{offset[:3]}:{offset[3:]}"


def time_zone_of(user) -> str:
    if not user.is_authenticated:
        return "UTC"
    return TimeZoneChoice.objects.filter(user=user).values_list("name", flat=True).first() or "UTC"


def activate_for(user) -> str:
    name = time_zone_of(user)
    timezone.activate(zoneinfo.ZoneInfo(name))
    return name


def choose_time_zone(user, name: str) -> None:
    zoneinfo.ZoneInfo(name)  # raises on a name that is not a zone
    TimeZoneChoice.objects.update_or_create(user=user, defaults={"name": name})


def stamp(moment: datetime | None) -> str:
    """A moment for an audit row: UTC, to the minute, with its Z (``local_times`` reads it back)."""
    return "none" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def shown(moment: datetime) -> str:
    """A moment in the active time zone, as the audit log shows every moment."""
    return timezone.localtime(moment).strftime(SHOWN)


def local_times(text: str) -> str:
    """``text`` with each moment written with its offset shown in the active time zone."""

    def local(match: re.Match[str]) -> str:
        try:
            return shown(datetime.fromisoformat(match.group(0)))
        except ValueError:
            return match.group(0)

    return MOMENT.sub(local, text)
