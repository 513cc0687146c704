from django.apps import AppConfig


class LearningConfig(AppConfig):
    name = "judge.learning"
    label = "learning"
    verbose_name = "What a student keeps: drafts, hints, notes, bookmarks and settings"
