from django.apps import AppConfig


class LtiConfig(AppConfig):
    name = "judge.lti"
    label = "lti"

    def ready(self) -> None:
        from judge.lti import hooks  # noqa: F401  (listens for changed credit; see hooks.py)
