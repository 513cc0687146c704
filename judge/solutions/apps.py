from django.apps import AppConfig


class SolutionsConfig(AppConfig):
    name = "judge.solutions"
    label = "solutions"
    verbose_name = "Published solutions: shared after solving, voted on, moderated"
