from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "judge.courses"
    label = "courses"

    def ready(self) -> None:
        from judge.courses import receivers  # noqa: F401  (remembers credit before a rejudge; see receivers.py)
