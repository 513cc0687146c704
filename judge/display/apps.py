from django.apps import AppConfig


class DisplayConfig(AppConfig):
    """An app only for its template tags (``{% load results %}``); it has no models."""

    name = "judge.display"
    label = "display"
