"""The standings follow every verdict, in the transaction that records it.

They are kept by ``judge.leaderboard``, a floor above this app, which reads the submissions; so this app does
not import it. Its ``AppConfig.ready`` hands over the one function that applies a recorded verdict
(``judge.leaderboard.services.apply_verdict``), and ``record_verdict`` calls it here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

_apply: Callable[[int], None] | None = None


def kept_by(apply: Callable[[int], None]) -> None:
    """Name the function that brings the standings in line with one submission's recorded verdict."""
    global _apply
    _apply = apply


def apply_verdict(submission_id: int) -> None:
    if _apply is None:
        raise ImproperlyConfigured("judge.leaderboard, which keeps the standings, is not in INSTALLED_APPS")
    _apply(submission_id)
