from django.apps import AppConfig


class RegradesConfig(AppConfig):
    name = "judge.regrades"
    label = "regrades"
