from django.apps import AppConfig


class GradingConfig(AppConfig):
    """No models: the worker's services, its Celery tasks and ``manage.py grade``."""

    name = "judge.grading"
    label = "grading"
