from django.apps import AppConfig


class CoursesConfig(AppConfig):
    name = "judge.courses"
    label = "courses"
