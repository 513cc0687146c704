"""Write operations on submissions: accept, claim, grade, record, recover.

The database is the source of truth.  A submission is accepted in a
transaction and enqueued after it commits; a worker claims it with a
compare-and-set and proves it is alive with heartbeats; only the holder of the
current claim can record the verdict.  If a worker, the broker or a sandbox
dies on the way, ``recover_stalled_submissions`` sends the submission again,
and the compare-and-set makes sure it is graded (recorded) once.

Fairness: at most ``MAX_RUNNING_PER_USER`` submissions of one user are graded
at once.  The claim refuses another; that submission is *parked* (still
queued, ``enqueued_at`` cleared, no message in the broker, no worker slot
held) and sent again when one of the user's submissions finishes.  Which queue:
``broker.Lane``; in what order: ``fairshare`` (a student who has used little worker time lately
goes first; a submission recovered after a fault before anyone).
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from engine.custom_input import CASE_NAME as CUSTOM_CASE
from engine.custom_input import BadInputs, InvalidInput, expectations, expected_output, validate_inputs
from engine.grading import GradeReport, grade
from engine.package import PackageError
from engine.pool import draw_cases
from engine.spec import Case
from engine.speed import SpeedReport, measure_speed
from engine.testset import ReferenceFailed
from engine.verdicts import Verdict
from judge.lib.broker import Lane, held_submissions, send_task
from judge.lib.sandbox_backend import discard_worker_sandbox, worker_sandbox
from judge.lib.validation import SubmissionRejected, validate_code
from judge.problems.models import Problem, TestSet
from judge.problems.queries import load_benchmark, load_cases, problem_spec
from judge.submissions import fairshare, push, standings
from judge.submissions.composition import builds_on, locked_reason, reference_code, solved_solutions
from judge.submissions.display import visible_case_data
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.signals import verdict_recorded
from sandbox.backends.base import SandboxError

log = logging.getLogger(__name__)


# The Celery tasks (judge.submissions.tasks) take these names; they are sent by name.
GRADE_TASK = "judge.submissions.tasks.grade_submission"
RECOVER_TASK = "judge.submissions.tasks.recover_stalled_submissions"
SPEED_TASK = "judge.submissions.tasks.measure_speed"


def submit_solution(user, problem: Problem, code: str | bytes, kind: str = Kind.SUBMIT,
                    custom_inputs: dict[str, str] | None = None, client_key: uuid.UUID | None = None,
                    client_address: str | None = None) -> Submission:
    """Accept the code (a Run on the student's own inputs with ``custom_inputs``: see ``submit_custom_run``).

    ``client_key`` is the page's key for the click: a second request with it (a retry whose first answer was
    lost) gets the submission the first one made, stored and graded once (``earlier_click``).
    ``client_address``: the web request's, which fair share counts beside the account."""
    code = validate_code(code)
    if not problem.published or problem.current_test_set_id is None:
        raise SubmissionRejected(f"the problem {problem.slug!r} is not open for submissions")
    locked = locked_reason(user, problem)
    if locked:
        raise SubmissionRejected(locked)
    try:
        with transaction.atomic():
            submission = Submission.objects.create(
                user=user, problem=problem, test_set_id=problem.current_test_set_id,
                kind=Kind.RUN if custom_inputs is not None else kind, code=code, custom_inputs=custom_inputs,
                enqueued_at=timezone.now(), client_key=client_key,
                client_address=fairshare.address_key(client_address),
            )
            transaction.on_commit(lambda: enqueue(submission.pk))
    except IntegrityError:
        if client_key is None:
            raise
        earlier = earlier_click(user, problem, client_key, code, kind, custom_inputs)
        if earlier:  # the same click twice at once: the unique key let one of them in
            return earlier
        # The key with other code: not a retry but a form restored by the Back button, which kept its key.
        return submit_solution(user, problem, code, kind, custom_inputs, client_address=client_address)
    return submission


def earlier_click(user, problem: Problem, client_key: uuid.UUID | None, code: str | bytes, kind: str,
                  custom_inputs: dict[str, str] | None = None) -> Submission | None:
    """The submission this click already made, if it did: the same problem, key, code, kind and custom inputs."""
    if client_key is None:
        return None
    earlier = Submission.objects.filter(user=user, problem=problem, client_key=client_key).first()
    if isinstance(code, bytes):
        code = code.decode("utf-8", "replace")
    kind = Kind.RUN if custom_inputs is not None else kind
    if earlier is None or (earlier.code, earlier.kind, earlier.custom_inputs) != (code, kind, custom_inputs):
        return None
    return earlier


class CustomInputRejected(SubmissionRejected):
    """Some custom inputs were refused: parameter -> why ("" for the form as a whole)."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{name} {message}" if name else message for name, message in errors.items()))
        self.errors = errors


def submit_custom_run(user, problem: Problem, code: str | bytes, texts: dict[str, str],
                      client_key: uuid.UUID | None = None, client_address: str | None = None) -> Submission:
    """A Run on the student's own inputs (NumPy literals, parameter -> text), graded against the reference's
    output on them, which the worker computes in the sandbox. CustomInputRejected names each refused field."""
    if not problem.solution_code.strip():
        raise SubmissionRejected(CUSTOM_UNAVAILABLE)
    try:
        validate_inputs(problem_spec(problem), texts, expectations(example_inputs(problem)))
    except BadInputs as exc:
        raise CustomInputRejected(exc.errors) from None
    return submit_solution(user, problem, code, Kind.RUN, custom_inputs=dict(texts), client_key=client_key,
                           client_address=client_address)


CUSTOM_UNAVAILABLE = "this problem has no reference solution on the site, so a custom input has no expected output"


def example_inputs(problem: Problem) -> dict:
    """The first visible example's inputs (arrays and scalars): what the custom-input form starts from."""
    if problem.current_test_set_id is None:
        return {}
    cases = visible_case_data(problem.current_test_set_id)
    return next(iter(cases.values()))[0] if cases else {}


def enqueue(submission_id: int, lane: str | None = None, priority: int | None = None) -> bool:
    """Send the submission to its lane, by default Run or Submit from its kind, in the order its student's
    fair share gives (or ``priority``); sent by the judge to the Run lane (recovered after a fault) it goes
    ahead of everyone, to the rejudge lane after everyone.  If the broker is down it stays queued and the sweep
    sends it later.  A fair-share message carries its band, which the claim checks again (``stepped_back``)."""
    if lane is None:
        kind = Submission.objects.filter(pk=submission_id).values_list("kind", flat=True).first()
        lane = Lane.RUN if kind == Kind.RUN else Lane.SUBMIT
        priority = fair_priority(submission_id) if priority is None else priority
        fair = {"band": priority} if priority is not None else {}
    else:
        priority, fair = (fairshare.URGENT if lane == Lane.RUN else fairshare.LAST), {}
    return send_task(GRADE_TASK, submission_id, queue=lane, capped=lane != Lane.REJUDGE, priority=priority, **fair)


def stepped_back(submission_id: int, band: int | None) -> bool:
    """Send the submission again, later in the order, if its student's fair share is worse now than when it was
    sent: the band is chosen as a message is sent, and ten accounts flooding at once each got messages into the
    first band before any of their work was counted.  True if it was sent again (this delivery is done)."""
    if band is None or not settings.REDIS_URL:
        return False
    now = fair_priority(submission_id)
    if now is None or now <= band:
        return False
    if not Submission.objects.filter(pk=submission_id, status=Status.QUEUED).exists():
        return False  # a dead worker's or a finished one: the claim decides
    log.info("submission %s steps back from band %s to %s", submission_id, band, now)
    return enqueue(submission_id, priority=now)


def fair_priority(submission_id: int) -> int | None:
    """The message priority from the student's fair share; their unfinished submissions, and those of
    everyone at their address, count as work to come."""
    row = Submission.objects.filter(pk=submission_id).values_list("user_id", "client_address").first()
    if row is None or not settings.REDIS_URL:
        return None
    user_id, address = row
    unfinished = Submission.objects.filter(status__in=(Status.QUEUED, Status.RUNNING)).exclude(pk=submission_id)
    at_address = unfinished.filter(client_address=address).count() if address else 0
    return fairshare.priority(user_id, address, unfinished.filter(user_id=user_id).count(), at_address)


def requeue(submission_ids: list[int], test_sets: dict[int, int], finished_before=None) -> int:
    """Put finished submissions back in the queue against ``test_sets`` (problem id -> test set id),
    on the low-priority rejudge lane, exempt from the per-user cap.

    One UPDATE per problem, guarded by ``status=done``: a submission being graded
    right now is left alone, and the claim and record compare-and-sets then give
    each requeued submission exactly one new verdict. With ``finished_before``, one
    graded again since (a rejudge batch sent a second time) is left alone too.
    """
    now = timezone.now()
    finished = Submission.objects.filter(pk__in=submission_ids, status=Status.DONE, problem_id__in=test_sets)
    if finished_before is not None:
        finished = finished.filter(finished_at__lt=finished_before)
    ready = list(finished.values_list("pk", "problem_id"))
    requeued = 0
    for problem_id, test_set_id in test_sets.items():
        ids = [pk for pk, problem in ready if problem == problem_id]
        if ids:
            requeued += Submission.objects.filter(pk__in=ids, status=Status.DONE).update(
                status=Status.QUEUED, test_set_id=test_set_id, verdict="", message="", results=[],
                grading_ms=None, sandbox={}, enqueued_at=now, started_at=None, finished_at=None,
                claim=None, heartbeat_at=None, attempts=0,
            )
    for pk, _ in ready:
        enqueue(pk, Lane.REJUDGE)
    return requeued


def claim_submission(submission_id: int, capped: bool = False) -> uuid.UUID | None:
    """Take the submission if it is queued, or running with a dead worker; with ``capped``, only while
    its user has fewer than ``MAX_RUNNING_PER_USER`` others being graded and none older parked."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.STALE_AFTER_S)
    token = uuid.uuid4()
    claimable = Submission.objects.filter(pk=submission_id).filter(
        Q(status=Status.QUEUED) | Q(status=Status.RUNNING, heartbeat_at__lt=stale))
    with transaction.atomic():
        if capped:
            user_id = claimable.values_list("user_id", flat=True).first()
            if user_id is None:
                return None
            _lock_user_claims(user_id)
            if _running_for_user(user_id, stale, other_than=submission_id) >= settings.MAX_RUNNING_PER_USER:
                return None
            if Submission.objects.filter(user_id=user_id, status=Status.QUEUED, enqueued_at__isnull=True,
                                         pk__lt=submission_id).exists():
                return None  # an older one of theirs is parked: it goes first (this one is parked behind it)
        claimed = claimable.update(status=Status.RUNNING, claim=token, heartbeat_at=now, started_at=now,
                                   attempts=F("attempts") + 1)
    return token if claimed == 1 else None


def _lock_user_claims(user_id: int) -> None:
    """Serialise one user's claims until the transaction ends, so two workers cannot both see a free slot.
    SQLite needs nothing: its transactions take the write lock as they begin (settings)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [CLAIM_LOCK_CLASS, user_id])


CLAIM_LOCK_CLASS = 10_431  # the first key of PostgreSQL's advisory locks taken here


def _running_for_user(user_id: int, stale, other_than: int | None = None) -> int:
    running = Submission.objects.filter(user_id=user_id, status=Status.RUNNING, heartbeat_at__gte=stale)
    return running.exclude(pk=other_than).count() if other_than else running.count()


def park_submission(submission_id: int) -> bool:
    """A queued submission whose user is at their cap waits here, in the database, instead of a worker slot."""
    parked = Submission.objects.filter(pk=submission_id, status=Status.QUEUED,
                                       enqueued_at__isnull=False).update(enqueued_at=None) == 1
    if parked:
        # Their last running one may have finished between the refused claim and now.
        release_parked(Submission.objects.values_list("user_id", flat=True).get(pk=submission_id))
    return parked


def release_parked(user_id: int) -> list[int]:
    """Send this user's oldest parked submissions, as many as they have free slots, to the back of their lanes."""
    stale = timezone.now() - timedelta(seconds=settings.STALE_AFTER_S)
    free = settings.MAX_RUNNING_PER_USER - _running_for_user(user_id, stale)
    if free <= 0:
        return []
    waiting = Submission.objects.filter(user_id=user_id, status=Status.QUEUED, enqueued_at__isnull=True)
    released = []
    for pk in waiting.order_by("pk").values_list("pk", flat=True)[:free]:
        if Submission.objects.filter(pk=pk, status=Status.QUEUED, enqueued_at__isnull=True).update(
                enqueued_at=timezone.now()) == 1:
            enqueue(pk)
            released.append(pk)
    return released


def beat(submission_id: int, token: uuid.UUID) -> bool:
    return Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
        heartbeat_at=timezone.now()) == 1


# ``record_verdict``'s compare-and-set in SQL, for the statement that also keeps the standings: the same
# changes as its ORM update (written in SQL because compiling that update costs as much as the statement).
RECORD_VERDICT = ("UPDATE submissions_submission SET status = %s, verdict = %s, message = %s, results = %s::jsonb, "
                  "properties = %s::jsonb, grading_ms = %s, sandbox = %s::jsonb, finished_at = %s, claim = NULL "
                  "WHERE id = %s AND claim = %s AND status = %s")


def record_verdict(submission_id: int, token: uuid.UUID, report: GradeReport) -> bool:
    """Store the final verdict, unless someone else holds the claim now; the standings follow in the same
    transaction (recomputed for this student and problem, so a redelivered or rejudged verdict counts once)."""
    tests, now = report.stored_tests(), timezone.now()
    recorded = standings.update_with_standings(RECORD_VERDICT, [  # the common case: one statement
        Status.DONE.value, str(report.verdict), report.message, json.dumps(tests),
        json.dumps(report.properties), report.time_ms, json.dumps(report.sandbox), now, submission_id, token,
        Status.RUNNING.value])
    if recorded is not None:
        return recorded
    with transaction.atomic():
        recorded = Submission.objects.filter(pk=submission_id, claim=token, status=Status.RUNNING).update(
            status=Status.DONE, verdict=report.verdict, message=report.message, results=tests,
            properties=report.properties, grading_ms=report.time_ms, sandbox=report.sandbox, finished_at=now,
            claim=None) == 1
        if recorded:
            standings.apply_verdict(submission_id)
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


def grade_submission(submission_id: int, capped: bool = True, band: int | None = None) -> bool:
    """Grade one submission if it can be claimed; True if this call recorded a verdict.

    ``capped`` (all but staff rejudges): refused while its user is at their cap, it is parked.  ``band``: the
    fair-share band it was sent with; one whose student is over that share now steps back (``stepped_back``)."""
    if capped and stepped_back(submission_id, band):
        return False
    token = claim_submission(submission_id, capped=capped)
    if token is None:
        if capped:
            park_submission(submission_id)
        return False
    started = time.monotonic()
    push.publish_status(submission_id, Status.RUNNING)
    submission = Submission.objects.select_related("problem", "test_set").get(pk=submission_id)
    try:
        recorded = _grade_claimed(submission, token)
        if recorded:  # apps above (LTI) queue what follows; their failure must not fail the grading
            for receiver, failure in verdict_recorded.send_robust(sender=Submission, submission=submission):
                if isinstance(failure, Exception):
                    log.error("after submission %s: %s failed", submission_id, receiver, exc_info=failure)
        return recorded
    finally:
        if capped:  # a staff rejudge is not the student's doing
            fairshare.charge(submission.user_id, submission.client_address, time.monotonic() - started)
        push.publish_status(submission_id, Status.DONE)
        release_parked(submission.user_id)


def _grade_claimed(submission: Submission, token: uuid.UUID) -> bool:
    if submission.attempts > settings.MAX_GRADING_ATTEMPTS:
        report = GradeReport(Verdict.INTERNAL_ERROR, "grading was interrupted too many times; please submit again")
        return record_verdict(submission.pk, token, report)
    # ``from solved import ...``: this student's own accepted solutions of the problems this one builds on.
    solved = solved_solutions(submission.user, submission.problem)
    with Heartbeat(submission.pk, token):
        if submission.is_custom:
            cases, refused = custom_cases(submission)
            if refused is not None:
                return record_verdict(submission.pk, token, refused)
        else:
            cases = draw_cases(list(cached_cases(submission.test_set_id, submission.test_set.version,
                                                 submission.kind == Kind.RUN)), submission.draw)
        report = grade_with_retries(submission.code, problem_spec(submission.problem), cases,
                                    solved={slug: s.code for slug, s in solved.items()})
    if solved:  # which of their submissions it imported, in loading order (a list: jsonb reorders keys)
        report.sandbox["solved"] = [[slug, s.pk] for slug, s in solved.items()]
    recorded = record_verdict(submission.pk, token, report)
    if not recorded:
        log.warning("submission %s was reclaimed while this worker graded it; result discarded", submission.pk)
    elif report.verdict == Verdict.ACCEPTED and submission.kind == Kind.SUBMIT and settings.MEASURE_SPEED:
        enqueue_speed(submission.pk)
    return recorded


def enqueue_speed(submission_id: int) -> bool:
    """Measure an accepted Submit's speed later, as a task of its own on the speed lane, which only the speed
    worker takes (one at a time, at the lowest CPU priority): its 26 timed sandbox jobs (3-39 s) must never
    hold a slot the next students' verdicts need.  A message the broker loses costs only the figure, and no
    sweep sends it again: the page says it was not measured once ``SPEED_GIVE_UP_S`` have passed."""
    return send_task(SPEED_TASK, submission_id, queue=Lane.SPEED)


def measure_submission_speed(submission_id: int) -> SpeedReport | None:
    """The speed task: time the Submit if it is still an accepted Submit without a figure (a rejudge may have
    refused it meanwhile, or a repeated message found it measured)."""
    submission = (Submission.objects.select_related("problem", "user")
                  .filter(pk=submission_id, kind=Kind.SUBMIT, status=Status.DONE, verdict=Verdict.ACCEPTED,
                          speed__isnull=True).first())
    if submission is None or not settings.MEASURE_SPEED:
        return None
    solved = solved_solutions(submission.user, submission.problem)
    return record_speed(submission, {slug: s.code for slug, s in solved.items()})


def record_speed(submission: Submission, solved: dict[str, str]) -> SpeedReport | None:
    """Measure an accepted Submit's speed against the reference's and store it (after its verdict, which
    the student sees first); when the sandbox failed, the stored figure says it was not measured and why."""
    problem = submission.problem
    draws = load_benchmark(submission.test_set_id)
    if not draws or not problem.solution_code.strip():
        report = SpeedReport(None, message="this problem has no benchmark to time it on")
        Submission.objects.filter(pk=submission.pk, speed__isnull=True).update(speed=report.as_dict())
        return report
    # The draws in an order of this submission's own, so no two Submits see their repeats in the same order.
    start = submission.draw % len(draws)
    draws = draws[start:] + draws[:start]
    try:
        report = measure_speed(submission.code, problem.solution_code, problem_spec(problem), draws,
                               worker_sandbox(), solved, reference_code(builds_on(problem)))
    except SandboxError as exc:
        log.warning("speed of submission %s not measured: %s", submission.pk, exc)
        discard_worker_sandbox()
        report = SpeedReport(None, message="the sandbox failed while timing it")
    Submission.objects.filter(pk=submission.pk, speed__isnull=True).update(speed=report.as_dict())
    return report


def custom_cases(submission: Submission) -> tuple[list[Case], GradeReport | None]:
    """The one case of a custom Run, its expected output computed by the reference in this worker's sandbox
    and stored on the submission; or, when there is none, the report that says why (blank verdict: the
    student's code was not run)."""
    problem, spec = submission.problem, problem_spec(submission.problem)
    try:
        if not problem.solution_code.strip():
            raise ReferenceFailed(CUSTOM_UNAVAILABLE)
        example = example_inputs(problem)
        inputs = validate_inputs(spec, submission.custom_inputs, expectations(example))
        expected = _reference_with_retries(problem, spec, inputs, example)
    except InvalidInput as exc:  # said in terms of the input: nothing of the reference's error or code
        Submission.objects.filter(pk=submission.pk).update(custom_error=str(exc))
        return [], GradeReport("", str(exc))
    except (BadInputs, ReferenceFailed, PackageError) as exc:
        Submission.objects.filter(pk=submission.pk).update(custom_error=str(exc))
        return [], GradeReport("", f"No expected output: {exc}")
    except SandboxError as exc:
        return [], _sandbox_failed(exc)
    Submission.objects.filter(pk=submission.pk).update(custom_expected=expected, custom_error="")
    return [Case(CUSTOM_CASE, False, inputs, expected)], None


def _reference_with_retries(problem: Problem, spec, inputs: dict, example: dict | None = None) -> bytes:
    """The reference's output on ``inputs``, with the published references of what it builds on as ``solved``."""
    solved = reference_code(builds_on(problem))
    failure = None
    for _ in range(settings.SANDBOX_TRIES):
        try:
            return expected_output(problem.solution_code, spec, inputs, worker_sandbox(), solved,
                                   settings.MAX_OUTPUT_BYTES, example)
        except SandboxError as exc:
            failure = exc
            discard_worker_sandbox()
    raise failure


TEST_SETS_KEPT = 128  # two entries (Run, Submit) per published problem: room for a catalogue twice today's


@functools.lru_cache(maxsize=TEST_SETS_KEPT)
def cached_cases(test_set_id: int, version: str, visible_only: bool) -> tuple[Case, ...]:
    """A test set's cases (every draw of the hidden ones), kept by this worker process: a version (content
    hash) never changes, and reading 13 cases' arrays from the database cost a loaded worker 100-200 ms
    per submission."""
    return tuple(load_cases(TestSet.objects.get(pk=test_set_id), visible_only=visible_only))


def preload_test_sets() -> int:
    """Read every published test set into this worker process's cache (a worker process does it in the
    background as it starts); the number of test sets read."""
    published = (Problem.objects.filter(published=True, current_test_set__isnull=False)
                 .values_list("current_test_set_id", "current_test_set__version")[:TEST_SETS_KEPT // 2])
    for test_set_id, version in published:
        for visible_only in (True, False):
            cached_cases(test_set_id, version, visible_only)
    return len(published)


def open_sandbox_ahead() -> None:
    """Open this worker process's sandbox before its first submission arrives."""
    try:
        worker_sandbox()
    except SandboxError:  # the first submission tries again, with the usual retries
        log.warning("could not open the sandbox ahead of the first submission", exc_info=True)


def grade_with_retries(code: str, spec, cases, tries: int | None = None,
                       solved: dict[str, str] | None = None) -> GradeReport:
    """Grade on this worker's warm sandbox, starting a fresh one each time it fails (``SANDBOX_TRIES`` in all)."""
    failure = None
    for _ in range(tries or settings.SANDBOX_TRIES):
        try:
            return grade(code, spec, cases, worker_sandbox(), solved=solved)
        except SandboxError as exc:
            failure = exc
            log.warning("sandbox failed (%s); retrying on a fresh one", exc)
            discard_worker_sandbox()
    return _sandbox_failed(failure)


def grade_with_sandbox(code: str, spec, cases, sandbox, tries: int | None = None,
                       solved: dict[str, str] | None = None) -> GradeReport:
    """Grade on a given sandbox (``manage.py grade``); its backend restarts it if it fails."""
    failure = None
    for _ in range(tries or settings.SANDBOX_TRIES):
        try:
            return grade(code, spec, cases, sandbox, solved=solved)
        except SandboxError as exc:
            failure = exc
    return _sandbox_failed(failure)


def _sandbox_failed(failure: Exception | None) -> GradeReport:
    tries = settings.SANDBOX_TRIES
    return GradeReport(Verdict.INTERNAL_ERROR,
                       f"the sandbox failed {tries} time{'s' if tries != 1 else ''} while grading ({failure}); "
                       "this is the judge's fault, not your code's: please submit again")


def recover_stalled_submissions(broker_lost: bool = False) -> list[int]:
    """Send again every submission whose worker or message was lost, and release parked ones with a free slot.

    A dead worker's submission is queued again (compare-and-set on its stale heartbeat) and sent once to the Run
    lane, ahead of any backlog; from then on it is an ordinary queued submission, not sent again at every sweep.
    A submission queued for over ``REQUEUE_AFTER_S`` is sent again only if the broker does not hold its message
    (``held_submissions``): during a flood most are only waiting.  With ``broker_lost`` (the broker's Redis
    forgot its messages) every queued submission is sent again at once, oldest first, to its own lane.
    """
    now = timezone.now()
    resent = requeue_dead_workers_submissions(now)
    lost = Submission.objects.filter(status=Status.QUEUED, enqueued_at__isnull=False)
    if not broker_lost:
        lost = lost.filter(enqueued_at__lt=now - timedelta(seconds=settings.REQUEUE_AFTER_S))
    candidates = list(lost.order_by("pk").values_list("pk", flat=True)[:2000])
    held = held_submissions(GRADE_TASK) if candidates and not broker_lost else None
    for submission_id in candidates:
        if held is not None and submission_id in held:
            continue  # waiting behind others, not lost
        Submission.objects.filter(pk=submission_id, status=Status.QUEUED).update(enqueued_at=now)
        enqueue(submission_id)
        resent.append(submission_id)
    parked = Submission.objects.filter(status=Status.QUEUED, enqueued_at__isnull=True)
    for user_id in parked.order_by().values_list("user_id", flat=True).distinct():
        release_parked(user_id)
    if resent:
        log.warning("re-sent %d stalled submission(s)%s: %s", len(resent), " (the broker lost its messages)"
                    if broker_lost else "", resent[:50])
    return resent


def requeue_dead_workers_submissions(now) -> list[int]:
    """Submissions whose worker stopped beating: back to the queue, each sent once to the Run lane."""
    stale = now - timedelta(seconds=settings.STALE_AFTER_S)
    resent = []
    for submission_id in Submission.objects.filter(status=Status.RUNNING, heartbeat_at__lt=stale).values_list(
            "pk", flat=True)[:500]:
        if Submission.objects.filter(pk=submission_id, status=Status.RUNNING, heartbeat_at__lt=stale).update(
                status=Status.QUEUED, claim=None, heartbeat_at=None, enqueued_at=now) == 1:
            enqueue(submission_id, Lane.RUN)
            resent.append(submission_id)
    return resent


def queue_position(submission: Submission) -> int | None:
    if submission.status != Status.QUEUED:
        return None
    return Submission.objects.filter(status=Status.QUEUED, created_at__lt=submission.created_at).count() + 1
