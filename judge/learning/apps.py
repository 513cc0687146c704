from django.apps import AppConfig


class LearningConfig(AppConfig):
    name = "judge.learning"
    label = "learning"
    verbose_name = "Per-student progress: drafts and hints"
