from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from judge.standings.services import rebuild_standings


class Command(BaseCommand):
    help = "Recompute the leaderboard's and the problem list's figures from the submissions, in one transaction."

    def handle(self, *args, **options) -> None:
        started = time.monotonic()
        counts = rebuild_standings()
        ranked, problems = counts["UserTotals"], counts["ProblemTotals"]
        self.stdout.write(
            f"rebuilt in {time.monotonic() - started:.1f} s: {counts['UserProblemState']} "
            f"student-problem states, {ranked} student{'s' * (ranked != 1)} ranked, "
            f"{problems} problem{'s' * (problems != 1)} with submissions"
        )
