from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    name = "judge.submissions"
    label = "submissions"
