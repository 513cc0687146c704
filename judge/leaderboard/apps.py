from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "judge.leaderboard"
    label = "leaderboard"
