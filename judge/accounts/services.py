"""Write operations on a student's own account settings."""

from __future__ import annotations

from judge.accounts.models import Profile


def set_hidden_from_standings(user, hidden: bool) -> Profile:
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"hide_from_standings": hidden})
    return profile


def is_hidden_from_standings(user) -> bool:
    return Profile.objects.filter(user=user, hide_from_standings=True).exists()
