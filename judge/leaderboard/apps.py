from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_delete


class LeaderboardConfig(AppConfig):
    name = "judge.leaderboard"
    label = "leaderboard"

    def ready(self) -> None:
        # Deleting cascades, also from the admin; the totals kept elsewhere must follow.
        from judge.leaderboard.services import forget_problem, forget_user

        pre_delete.connect(forget_user, sender=settings.AUTH_USER_MODEL, dispatch_uid="standings-forget-user")
        pre_delete.connect(forget_problem, sender="problems.Problem", dispatch_uid="standings-forget-problem")
