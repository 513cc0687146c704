"""The claim: a compare-and-set that gives one worker a submission, heartbeats that keep it, parking at the
per-user cap, and the sweep that sends again what a dead worker or a lost message left."""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import timedelta
from typing import Self

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, F, Q
from django.utils import timezone

from judge.lib.broker import Lane, held_submissions
from judge.submissions import push
from judge.submissions.models import Status, Submission
from judge.submissions.services import intake

log = logging.getLogger(__name__)

# The sweep's Celery task (judge.submissions.tasks) takes this name; it is sent by name.
RECOVER_TASK = "judge.submissions.tasks.recover_stalled_submissions"


def claim_submission(submission_id: int, capped: bool = False, user_id: int | None = None) -> uuid.UUID | None:
    """Take the submission if it is queued, or running with a dead worker; with ``capped``, only while
    its user has fewer than ``MAX_RUNNING_PER_USER`` others being graded and none older parked.
    ``user_id``: the submission's student, when the caller has read it (PostgreSQL then claims in one round trip)."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.STALE_AFTER_S)
    token = uuid.uuid4()
    if capped and settings.MAX_RUNNING_PER_USER <= 0:
        return None
    if capped and user_id is not None and connection.vendor == "postgresql":
        return token if _claim_capped_in_one_trip(submission_id, user_id, token, now, stale) else None
    claimable = Submission.objects.filter(pk=submission_id).filter(
        Q(status=Status.QUEUED) | Q(status=Status.RUNNING, heartbeat_at__lt=stale)
    )
    claim = {
        "status": Status.RUNNING,
        "claim": token,
        "heartbeat_at": now,
        "started_at": now,
        "attempts": F("attempts") + 1,
    }
    if not capped:
        return token if claimable.update(**claim) == 1 else None
    with transaction.atomic():
        user_id = _lock_user_claims(submission_id, claimable)
        if user_id is None:
            return None
        # The cap and the parked ones in the UPDATE's own conditions: one statement, not three.
        others = (
            Submission.objects.filter(user_id=user_id, status=Status.RUNNING, heartbeat_at__gte=stale)
            .exclude(pk=submission_id)
            .order_by("pk")
        )
        # An older one of theirs parked goes first (this one is parked behind it).
        older_parked = Submission.objects.filter(
            user_id=user_id, status=Status.QUEUED, enqueued_at__isnull=True, pk__lt=submission_id
        )
        cap = settings.MAX_RUNNING_PER_USER  # fewer than ``cap`` others running: none in place ``cap``
        claimable = claimable.filter(~Exists(older_parked), ~Exists(others[cap - 1 : cap]))
        claimed = claimable.update(**claim)
    return token if claimed == 1 else None


# The capped claim on PostgreSQL, as one simple query of two statements: one round trip, in one implicit
# transaction, so the student's advisory lock is held until the UPDATE has committed.  The UPDATE takes its
# snapshot after the lock was granted (READ COMMITTED: one per statement), so it sees the claim of whoever
# held the lock before: two workers cannot both see a free slot.  Its conditions are the ORM path's:
# claimable, no older one of the student's parked, fewer than the cap of others running.
CLAIM_CAPPED = """SELECT pg_advisory_xact_lock(%(lock)s, %(user)s);
UPDATE submissions_submission SET status = %(running)s, claim = %(token)s, heartbeat_at = %(now)s,
    started_at = %(now)s, attempts = attempts + 1
WHERE id = %(id)s AND (status = %(queued)s OR (status = %(running)s AND heartbeat_at < %(stale)s))
    AND NOT EXISTS (SELECT 1 FROM submissions_submission p WHERE p.user_id = %(user)s AND p.status = %(queued)s
                    AND p.enqueued_at IS NULL AND p.id < %(id)s)
    AND (SELECT count(*) FROM (SELECT 1 FROM submissions_submission r WHERE r.user_id = %(user)s
         AND r.status = %(running)s AND r.heartbeat_at >= %(stale)s AND r.id <> %(id)s LIMIT %(cap)s) AS running) < %(cap)s
RETURNING id"""


def _claim_capped_in_one_trip(submission_id: int, user_id: int, token: uuid.UUID, now, stale) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            CLAIM_CAPPED,
            {
                "lock": CLAIM_LOCK_CLASS,
                "user": user_id,
                "id": submission_id,
                "token": token,
                "now": now,
                "stale": stale,
                "queued": Status.QUEUED.value,
                "running": Status.RUNNING.value,
                "cap": settings.MAX_RUNNING_PER_USER,
            },
        )
        cursor.nextset()  # the UPDATE's result
        return cursor.fetchone() is not None


def _lock_user_claims(submission_id: int, claimable) -> int | None:
    """The user of the submission, if it is ``claimable``, whose claims are then serialised until the transaction
    ends, so two workers cannot both see a free slot (one statement on PostgreSQL: the lookup takes the lock).
    SQLite needs no lock: its transactions take the write lock as they begin (settings)."""
    if connection.vendor != "postgresql":
        return claimable.values_list("user_id", flat=True).first()
    sql, params = claimable.values_list("user_id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT user_id, pg_advisory_xact_lock(%s, user_id) FROM ({sql}) AS claimable",  # noqa: S608  (the ORM compiled it)
            [CLAIM_LOCK_CLASS, *params],
        )
        row = cursor.fetchone()
    return row[0] if row else None


CLAIM_LOCK_CLASS = 10_431  # the first key of PostgreSQL's advisory locks taken here


def _running_for_user(user_id: int, stale, other_than: int | None = None) -> int:
    running = Submission.objects.filter(user_id=user_id, status=Status.RUNNING, heartbeat_at__gte=stale)
    return running.exclude(pk=other_than).count() if other_than else running.count()


def park_submission(submission_id: int) -> bool:
    """A queued submission whose user is at their cap waits here, in the database, instead of a worker slot."""
    parked = (
        Submission.objects.filter(pk=submission_id, status=Status.QUEUED, enqueued_at__isnull=False).update(
            enqueued_at=None
        )
        == 1
    )
    if parked:
        # Their last running one may have finished between the refused claim and now.
        release_parked(Submission.objects.values_list("user_id", flat=True).get(pk=submission_id))
    return parked


# A student's oldest parked submissions, in SQL: every graded submission asks, and compiling the ORM's query cost
# five times as much CPU as the statement (usually answered with no rows).
PARKED = (
    "SELECT id FROM submissions_submission WHERE user_id = %s AND status = %s AND enqueued_at IS NULL "
    "ORDER BY id LIMIT %s"
)


def release_parked(user_id: int) -> list[int]:
    """Send this user's oldest parked submissions, as many as they have free slots, to the back of their lanes."""
    with connection.cursor() as cursor:
        cursor.execute(PARKED, [user_id, Status.QUEUED.value, settings.MAX_RUNNING_PER_USER])
        parked = [row[0] for row in cursor.fetchall()]
    if not parked:
        return []  # the common case, in one query: nobody's slots need counting
    stale = timezone.now() - timedelta(seconds=settings.STALE_AFTER_S)
    free = settings.MAX_RUNNING_PER_USER - _running_for_user(user_id, stale)
    released = []
    for pk in parked[: max(free, 0)]:
        if (
            Submission.objects.filter(pk=pk, status=Status.QUEUED, enqueued_at__isnull=True).update(
                enqueued_at=timezone.now()
            )
            == 1
        ):
            intake.enqueue(pk)
            released.append(pk)
    return released


def beat(submission_id: int, token: uuid.UUID) -> bool:
    return (
        Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
            heartbeat_at=timezone.now()
        )
        == 1
    )


class Heartbeat:
    """Keeps a claim fresh from a background thread while grading runs."""

    def __init__(self, submission_id: int, token: uuid.UUID) -> None:
        self.submission_id, self.token = submission_id, token
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        try:
            while not self.stop.wait(settings.HEARTBEAT_INTERVAL_S):
                beat(self.submission_id, self.token)
        finally:
            connection.close()

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()


def recover_stalled_submissions(broker_lost: bool = False) -> list[int]:
    """Send again every submission whose worker or message was lost, and release parked ones with a free slot.

    A dead worker's submission is queued again (compare-and-set on its stale heartbeat) and sent once to the Run
    lane, ahead of any backlog; from then on it is an ordinary queued submission, not sent again at every sweep.
    A submission queued for over ``REQUEUE_AFTER_S`` is sent again only if the broker does not hold its message
    (``held_submissions``): during a flood most are only waiting.  With ``broker_lost`` (the broker's Redis
    forgot its messages) every queued submission is sent again at once, oldest first, to its own lane.
    """
    now = timezone.now()
    if not broker_lost and not anything_to_recover(now):
        return []  # the common case, every 3 s: one statement
    resent = requeue_dead_workers_submissions(now)
    lost = Submission.objects.filter(status=Status.QUEUED, enqueued_at__isnull=False)
    if not broker_lost:
        lost = lost.filter(enqueued_at__lt=now - timedelta(seconds=settings.REQUEUE_AFTER_S))
    candidates = list(lost.order_by("pk").values_list("pk", flat=True)[:2000])
    held = held_submissions(intake.GRADE_TASK) if candidates and not broker_lost else None
    for submission_id in candidates:
        if held is not None and submission_id in held:
            continue  # waiting behind others, not lost
        Submission.objects.filter(pk=submission_id, status=Status.QUEUED).update(enqueued_at=now)
        intake.enqueue(submission_id)
        resent.append(submission_id)
    parked = Submission.objects.filter(status=Status.QUEUED, enqueued_at__isnull=True)
    for user_id in parked.order_by().values_list("user_id", flat=True).distinct():
        release_parked(user_id)
    if resent:
        log.warning(
            "re-sent %d stalled submission(s)%s: %s",
            len(resent),
            " (the broker lost its messages)" if broker_lost else "",
            resent[:50],
        )
    return resent


# Whether the sweep has anything to look at: a claim gone stale, a submission queued long ago, a parked one.
ANYTHING_TO_RECOVER = """SELECT EXISTS (SELECT 1 FROM submissions_submission WHERE status = %s AND heartbeat_at < %s)
    OR EXISTS (SELECT 1 FROM submissions_submission WHERE status = %s AND enqueued_at < %s)
    OR EXISTS (SELECT 1 FROM submissions_submission WHERE status = %s AND enqueued_at IS NULL)"""


def anything_to_recover(now) -> bool:
    stale, old = (
        connection.ops.adapt_datetimefield_value(now - timedelta(seconds=seconds))
        for seconds in (settings.STALE_AFTER_S, settings.REQUEUE_AFTER_S)
    )
    with connection.cursor() as cursor:
        cursor.execute(
            ANYTHING_TO_RECOVER, [Status.RUNNING.value, stale, Status.QUEUED.value, old, Status.QUEUED.value]
        )
        return bool(cursor.fetchone()[0])


def requeue_dead_workers_submissions(now) -> list[int]:
    """Submissions whose worker stopped beating: back to the queue, each sent once to the Run lane."""
    stale = now - timedelta(seconds=settings.STALE_AFTER_S)
    resent = []
    for submission_id in Submission.objects.filter(status=Status.RUNNING, heartbeat_at__lt=stale).values_list(
        "pk", flat=True
    )[:500]:
        if (
            Submission.objects.filter(pk=submission_id, status=Status.RUNNING, heartbeat_at__lt=stale).update(
                status=Status.QUEUED, claim=None, heartbeat_at=None, enqueued_at=now
            )
            == 1
        ):
            push.publish_status(submission_id, Status.QUEUED)  # a waiting page reads only when told (push.py)
            intake.enqueue(submission_id, Lane.RUN)
            resent.append(submission_id)
    return resent
