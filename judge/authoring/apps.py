from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    name = "judge.authoring"
    verbose_name = "Authoring"
