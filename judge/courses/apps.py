from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "judge.courses"
    label = "courses"

    def ready(self) -> None:
        from judge.courses import attempts, receivers, release  # noqa: F401  (receivers: credit before a rejudge)
        from judge.submissions import admission, withheld

        admission.add_rule(attempts.refusal)  # an assignment's attempt limit, asked where every Submit is stored
        withheld.add_rule(release.held_since)  # a held solve opens nothing and counts nowhere before release
        withheld.add_board_rule(release.held_solvers)  # nor on the site-wide standings
