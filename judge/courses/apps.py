from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "judge.courses"
    label = "courses"

    def ready(self) -> None:
        from judge.courses import attempts, receivers  # noqa: F401  (remembers credit before a rejudge; see receivers.py)
        from judge.submissions.admission import add_rule

        add_rule(attempts.refusal)  # an assignment's attempt limit, asked where every Submit is stored
