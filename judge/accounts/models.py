"""What a student chose about how others see them."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """Made on first change; a student without one has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    # Classrooms need it: public standings show "anonymous", and the profile shows nothing to others.
    hide_from_standings = models.BooleanField(default=False)
