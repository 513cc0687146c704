from django.apps import AppConfig


class ProblemsConfig(AppConfig):
    name = "judge.problems"
    label = "problems"
