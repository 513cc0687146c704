"""Accepting a submission and sending it to be graded: a new one, or a finished one back for a rejudge.

``take_submission`` is what a click on Run or Submit does, from the problem page and the API alike: the views
parse their input and answer in their own form, and nothing else."""

from __future__ import annotations

import logging
import uuid
from typing import Any, NamedTuple

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from engine.custom_input import BadInputs, expectations, validate_inputs
from judge.lib.broker import Lane, send_task
from judge.lib.logs import current_request_id
from judge.lib.validation import SubmissionRejected, validate_code
from judge.problems.models import Problem
from judge.problems.queries import problem_spec, visible_case_data
from judge.submissions import admission, fairshare
from judge.submissions.composition import locked_reason
from judge.submissions.limits import check_rate_limit
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.reviews import not_due_reason

log = logging.getLogger(__name__)


# The grading Celery task (judge.grading.tasks) takes this name (its old module's); it is sent by name.
GRADE_TASK = "judge.submissions.tasks.grade_submission"


def take_submission(
    request,
    problem: Problem,
    code: str | bytes,
    kind: str,
    inputs: dict[str, str] | None,
    client_key: uuid.UUID | None,
    client_address: str,
) -> Submission:
    """A click on Run or Submit (``inputs``: a Run on the student's own inputs), from a page or the API.

    The same click again (a retry whose first answer was lost) gets the submission it made, not counted again;
    otherwise the rate limit counts it (``RateLimited``), then the code is accepted or refused
    (``SubmissionRejected``; ``CustomInputRejected`` names each refused input). ``client_address``: as the
    sign-in limits see it (``judge.accounts.limits.client_address``), which fair share counts
    (docs/contributors/architecture.md#fairness-fair-share-across-accounts-and-addresses)."""
    kind = Kind.RUN if inputs is not None else kind
    earlier = earlier_click(request.user, problem, client_key, code, kind, inputs)
    if earlier:
        return earlier
    check_rate_limit(request, kind)
    if inputs is not None:
        return submit_custom_run(
            request.user, problem, code, inputs, client_key=client_key, client_address=client_address
        )
    return submit_solution(request.user, problem, code, kind, client_key=client_key, client_address=client_address)


def submit_solution(
    user,
    problem: Problem,
    code: str | bytes,
    kind: str = Kind.SUBMIT,
    custom_inputs: dict[str, str] | None = None,
    client_key: uuid.UUID | None = None,
    client_address: str | None = None,
) -> Submission:
    """Accept the code (a Run on the student's own inputs with ``custom_inputs``: see ``submit_custom_run``).

    ``client_key`` is the page's key for the click: a second request with it (a retry whose first answer was
    lost) gets the submission the first one made, stored and graded once (``earlier_click``).
    ``client_address``: the web request's, which fair share counts beside the account. A Submit is admitted
    by the rules apps above add (``admission``: an assignment's attempt limit), under a lock on the student."""
    code = validate_code(code)
    if not problem.published or problem.current_test_set_id is None:
        raise SubmissionRejected(f"the problem {problem.slug!r} is not open for submissions")
    locked = locked_reason(user, problem)
    if locked:
        raise SubmissionRejected(locked)
    not_due = not_due_reason(user, problem, timezone.now()) if kind == Kind.REVIEW else ""
    if not_due:
        raise SubmissionRejected(not_due)
    try:
        with transaction.atomic():
            if kind == Kind.SUBMIT and custom_inputs is None:
                admission.admit(user, problem, timezone.now())  # an attempt limit, counted under a lock
            submission = Submission.objects.create(
                user=user,
                problem=problem,
                test_set_id=problem.current_test_set_id,
                kind=Kind.RUN if custom_inputs is not None else kind,
                code=code,
                custom_inputs=custom_inputs,
                enqueued_at=timezone.now(),
                client_key=client_key,
                client_address=fairshare.address_key(client_address),
                request_id=current_request_id(),
            )
            transaction.on_commit(lambda: enqueue(submission.pk))
    except admission.SubmitRefused:
        # The same click sent twice at once: the second waited for the first's lock and counted its Submit.
        earlier = earlier_click(user, problem, client_key, code, kind, custom_inputs)
        if earlier:
            return earlier
        raise
    except IntegrityError:
        if client_key is None:
            raise
        earlier = earlier_click(user, problem, client_key, code, kind, custom_inputs)
        if earlier:  # the same click twice at once: the unique key let one of them in
            return earlier
        # The key with other code: not a retry but a form restored by the Back button, which kept its key.
        return submit_solution(user, problem, code, kind, custom_inputs, client_address=client_address)
    log.info("submission %s accepted: %s of %s by user %s", submission.pk, submission.kind, problem.slug, user.pk)
    return submission


def earlier_click(
    user,
    problem: Problem,
    client_key: uuid.UUID | None,
    code: str | bytes,
    kind: str,
    custom_inputs: dict[str, str] | None = None,
) -> Submission | None:
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


def submit_custom_run(
    user,
    problem: Problem,
    code: str | bytes,
    texts: dict[str, str],
    client_key: uuid.UUID | None = None,
    client_address: str | None = None,
) -> Submission:
    """A Run on the student's own inputs (NumPy literals, parameter -> text), graded against the reference's
    output on them, which the worker computes in the sandbox. CustomInputRejected names each refused field."""
    if not problem.solution_code.strip():
        raise SubmissionRejected(CUSTOM_UNAVAILABLE)
    try:
        validate_inputs(problem_spec(problem), texts, expectations(example_inputs(problem)))
    except BadInputs as exc:
        raise CustomInputRejected(exc.errors) from None
    return submit_solution(
        user, problem, code, Kind.RUN, custom_inputs=dict(texts), client_key=client_key, client_address=client_address
    )


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
    fair: dict[str, Any]  # the task's keyword arguments
    if lane is None:
        kind = Submission.objects.filter(pk=submission_id).values_list("kind", flat=True).first()
        lane = Lane.RUN if kind == Kind.RUN else Lane.SUBMIT
        priority = fair_priority(submission_id) if priority is None else priority
        fair = {"band": priority} if priority is not None else {}
    else:
        priority, fair = (fairshare.URGENT if lane == Lane.RUN else fairshare.LAST), {}
    return send_task(GRADE_TASK, submission_id, queue=lane, capped=lane != Lane.REJUDGE, priority=priority, **fair)


class Delivery(NamedTuple):
    """What a worker reads of a submission as its message arrives, in one statement (``delivery``); the
    unfinished counts only when asked for (the fair-share check of a message sent with a band)."""

    request_id: str
    user_id: int
    client_address: str
    status: str
    mine: int = 0  # the student's other submissions not yet graded
    here: int = 0  # those of every account at the student's address (the address known)


# Hand-written: the ORM's compiling cost as much as the statement, on every message (issue 45).
DELIVERY = (
    "SELECT s.request_id, s.user_id, s.client_address, s.status{counts} FROM submissions_submission s WHERE s.id = %s"
)
UNFINISHED_COUNTS = (
    ", (SELECT count(*) FROM submissions_submission o WHERE o.status IN (%s, %s) AND o.id <> s.id AND o.user_id = s.user_id)"
    ", (SELECT count(*) FROM submissions_submission o WHERE o.status IN (%s, %s) AND o.id <> s.id"
    " AND s.client_address <> '' AND o.client_address = s.client_address)"
)


def delivery(submission_id: int, counts: bool = False) -> Delivery | None:
    """The submission's request id, student, address and status (None when it is gone), and with ``counts`` the
    unfinished work of the student and of their address, which fair share charges."""
    unfinished = [Status.QUEUED.value, Status.RUNNING.value] * 2 if counts else []
    with connection.cursor() as cursor:
        cursor.execute(DELIVERY.format(counts=UNFINISHED_COUNTS if counts else ""), [*unfinished, submission_id])
        row = cursor.fetchone()
    return None if row is None else Delivery(*row)


def stepped_back(submission_id: int, band: int | None, found: Delivery | None = None) -> bool:
    """Send the submission again, later in the order, if its student's fair share is worse now than when it was
    sent: the band is chosen as a message is sent, and ten accounts flooding at once each got messages into the
    first band before any of their work was counted.  True if it was sent again (this delivery is done).
    ``found``: the submission as ``delivery(counts=True)`` read it."""
    if band is None or not settings.REDIS_URL:
        return False
    found = found or delivery(submission_id, counts=True)
    if found is None or found.status != Status.QUEUED:
        return False  # a dead worker's or a finished one: the claim decides
    now = fairshare.priority(found.user_id, found.client_address, found.mine, found.here)
    if now is None or now <= band:
        return False
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
    wanted = {"mine": Count("pk", filter=Q(user_id=user_id))}  # both counts in one query
    if address:
        wanted["here"] = Count("pk", filter=Q(client_address=address))
    counts = unfinished.aggregate(**wanted)
    return fairshare.priority(user_id, address, counts["mine"], counts.get("here", 0))


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
                status=Status.QUEUED,
                test_set_id=test_set_id,
                verdict="",
                message="",
                results=[],
                grading_ms=None,
                sandbox={},
                enqueued_at=now,
                started_at=None,
                finished_at=None,
                claim=None,
                heartbeat_at=None,
                attempts=0,
            )
    for pk, _ in ready:
        enqueue(pk, Lane.REJUDGE)
    return requeued


def queue_position(submission: Submission) -> int | None:
    if submission.status != Status.QUEUED:
        return None
    return Submission.objects.filter(status=Status.QUEUED, created_at__lt=submission.created_at).count() + 1
