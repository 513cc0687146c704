from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_delete


class StandingsConfig(AppConfig):
    name = "judge.standings"
    # The label the app had as judge.leaderboard: its tables (leaderboard_*), migration history and the other
    # apps' migrations that depend on it are named by it, so a database migrated before the rename needs nothing.
    label = "leaderboard"

    def ready(self) -> None:
        # Deleting cascades, also from the admin; the totals kept elsewhere must follow.
        from judge.standings.services import forget_problem, forget_user

        pre_delete.connect(forget_user, sender=settings.AUTH_USER_MODEL, dispatch_uid="standings-forget-user")
        pre_delete.connect(forget_problem, sender="problems.Problem", dispatch_uid="standings-forget-problem")
