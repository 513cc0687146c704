"""Each person reads dates in their own time zone; the database keeps UTC."""

from __future__ import annotations

import zoneinfo

from django.utils import timezone

from judge.courses.models import TimeZoneChoice


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
