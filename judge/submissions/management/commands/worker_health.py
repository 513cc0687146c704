from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from judge.submissions.workers import host_worker_alive


class Command(BaseCommand):
    help = (
        "Exit 0 if a Celery worker on this host (container) wrote its heartbeat within WORKER_SILENT_AFTER_S "
        "seconds, 1 if not: the health check of compose's worker services."
    )

    def handle(self, *args, **options) -> None:
        if not host_worker_alive():
            raise CommandError(
                f"no worker on this host has written its heartbeat in the last {settings.WORKER_SILENT_AFTER_S:g} s",
                returncode=1,
            )
        self.stdout.write("a worker on this host is alive")
