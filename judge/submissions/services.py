"""Write operations on submissions: accept, claim, grade, record, recover.

The database is the source of truth.  A submission is accepted in a
transaction and enqueued after it commits; a worker claims it with a
compare-and-set and proves it is alive with heartbeats; only the holder of the
current claim can record the verdict.  If a worker, the broker or a sandbox
dies on the way, ``recover_stalled_submissions`` sends the submission again,
and the compare-and-set makes sure it is graded (recorded) once.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from judge.grading.grader import GradeReport, grade
from judge.grading.sandboxes import discard_worker_sandbox, worker_sandbox
from judge.grading.verdicts import Verdict
from judge.problems.models import Problem
from judge.problems.services import load_cases, problem_spec
from judge.leaderboard.services import refresh_submission_progress
from judge.submissions.models import Kind, Status, Submission
from sandbox.backends.base import SandboxError

log = logging.getLogger(__name__)


class SubmissionRejected(ValueError):
    """The code cannot be accepted; the message tells the student why."""


def validate_code(code: str | bytes) -> str:
    limit = settings.MAX_CODE_BYTES
    if isinstance(code, bytes):
        if len(code) > limit:
            raise SubmissionRejected(f"the code is {len(code):,} bytes; the limit is {limit:,} bytes")
        try:
            code = code.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = code[: exc.start].count(b"\n") + 1
            raise SubmissionRejected(
                f"the code is not valid UTF-8 (byte 0x{code[exc.start]:02x} on line {line}); save the file as UTF-8"
            ) from None
    size = len(code.encode("utf-8", errors="surrogatepass"))
    if size > limit:
        raise SubmissionRejected(f"the code is {size:,} bytes; the limit is {limit:,} bytes")
    if not code.strip():
        raise SubmissionRejected("the code is empty")
    if "\x00" in code:
        raise SubmissionRejected("the code contains a NUL byte")
    try:
        code.encode("utf-8")
    except UnicodeEncodeError:
        raise SubmissionRejected("the code is not valid UTF-8 (it contains a lone surrogate)") from None
    return code


def submit_solution(user, problem: Problem, code: str | bytes, kind: str = Kind.SUBMIT) -> Submission:
    code = validate_code(code)
    if not problem.published or problem.current_test_set_id is None:
        raise SubmissionRejected(f"the problem {problem.slug!r} is not open for submissions")
    with transaction.atomic():
        submission = Submission.objects.create(
            user=user, problem=problem, test_set_id=problem.current_test_set_id,
            kind=kind, code=code, enqueued_at=timezone.now(),
        )
        transaction.on_commit(lambda: enqueue(submission.pk))
    return submission


def enqueue(submission_id: int) -> None:
    from judge.submissions.tasks import grade_submission as task

    try:
        task.delay(submission_id)
    except Exception:  # the broker is down: the recovery sweep will send it again
        log.exception("could not enqueue submission %s; it stays queued for recovery", submission_id)


def claim_submission(submission_id: int) -> uuid.UUID | None:
    """Take the submission if it is queued, or running with a dead worker."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.STALE_AFTER_S)
    token = uuid.uuid4()
    claimed = (
        Submission.objects.filter(pk=submission_id)
        .filter(Q(status=Status.QUEUED) | Q(status=Status.RUNNING, heartbeat_at__lt=stale))
        .update(status=Status.RUNNING, claim=token, heartbeat_at=now, started_at=now, attempts=F("attempts") + 1)
    )
    return token if claimed == 1 else None


def beat(submission_id: int, token: uuid.UUID) -> bool:
    return Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
        heartbeat_at=timezone.now()) == 1


def record_verdict(submission_id: int, token: uuid.UUID, report: GradeReport) -> bool:
    """Store the final verdict, unless someone else holds the claim now; the standings follow in the same
    transaction (recomputed for this student and problem, so a redelivered or rejudged verdict counts once)."""
    data = report.as_dict()
    with transaction.atomic():
        recorded = Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
            status=Status.DONE, verdict=report.verdict, message=report.message, results=data["tests"],
            grading_ms=report.time_ms, sandbox=report.sandbox, finished_at=timezone.now(), claim=None,
        ) == 1
        if recorded:
            refresh_submission_progress(submission_id)
    return recorded


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

    def __enter__(self) -> "Heartbeat":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()


def grade_submission(submission_id: int) -> bool:
    """Grade one submission if it can be claimed; True if this call recorded a verdict."""
    token = claim_submission(submission_id)
    if token is None:
        return False
    submission = Submission.objects.select_related("problem", "test_set").get(pk=submission_id)
    if submission.attempts > settings.MAX_GRADING_ATTEMPTS:
        report = GradeReport(Verdict.INTERNAL_ERROR, "grading was interrupted too many times; please submit again")
        return record_verdict(submission_id, token, report)
    cases = load_cases(submission.test_set, visible_only=submission.kind == Kind.RUN)
    with Heartbeat(submission_id, token):
        report = grade_with_retries(submission.code, problem_spec(submission.problem), cases)
    recorded = record_verdict(submission_id, token, report)
    if not recorded:
        log.warning("submission %s was reclaimed while this worker graded it; result discarded", submission_id)
    return recorded


def grade_with_retries(code: str, spec, cases, tries: int = 2) -> GradeReport:
    """Grade on this worker's warm sandbox, starting a fresh one if it fails."""
    failure = None
    for _ in range(tries):
        try:
            return grade(code, spec, cases, worker_sandbox())
        except SandboxError as exc:
            failure = exc
            log.warning("sandbox failed (%s); retrying on a fresh one", exc)
            discard_worker_sandbox()
    return _sandbox_failed(failure)


def grade_with_sandbox(code: str, spec, cases, sandbox, tries: int = 2) -> GradeReport:
    """Grade on a given sandbox (``manage.py grade``); its backend restarts it if it fails."""
    failure = None
    for _ in range(tries):
        try:
            return grade(code, spec, cases, sandbox)
        except SandboxError as exc:
            failure = exc
    return _sandbox_failed(failure)


def _sandbox_failed(failure: Exception | None) -> GradeReport:
    return GradeReport(Verdict.INTERNAL_ERROR,
                       f"the sandbox failed while grading ({failure}); this is the judge's fault, not your code's")


def recover_stalled_submissions() -> list[int]:
    """Send again every submission whose message or worker was lost."""
    now = timezone.now()
    stalled = Submission.objects.filter(
        Q(status=Status.RUNNING, heartbeat_at__lt=now - timedelta(seconds=settings.STALE_AFTER_S))
        | Q(status=Status.QUEUED, enqueued_at__lt=now - timedelta(seconds=settings.REQUEUE_AFTER_S))
    )
    resent = []
    for submission_id in stalled.values_list("pk", flat=True)[:500]:
        Submission.objects.filter(pk=submission_id, status=Status.QUEUED).update(enqueued_at=now)
        enqueue(submission_id)
        resent.append(submission_id)
    if resent:
        log.info("re-sent %d stalled submission(s): %s", len(resent), resent)
    return resent


def queue_position(submission: Submission) -> int | None:
    if submission.status != Status.QUEUED:
        return None
    return Submission.objects.filter(status=Status.QUEUED, created_at__lt=submission.created_at).count() + 1
