from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "judge.accounts"
    label = "accounts"
