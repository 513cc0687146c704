"""The worker's side: grade a claimed submission on this process's sandbox (retrying on a fresh one when it
fails), compute a custom Run's expected output, measure an accepted Submit's speed, keep the test sets read."""

from __future__ import annotations

import functools
import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, models
from django.db.models import Field

from engine.custom_input import CASE_NAME as CUSTOM_CASE
from engine.custom_input import BadInputs, InvalidInput, expectations, expected_output, validate_inputs
from engine.grading import GradeReport, grade
from engine.package import PackageError
from engine.pool import draw_cases
from engine.spec import Case
from engine.speed import SpeedReport, code_key, measure_speed
from engine.testset import ReferenceFailed
from engine.verdicts import Verdict
from judge.grading.recording import record_verdict
from judge.lib.broker import Lane, send_task
from judge.lib.logs import bound_request_id
from judge.lib.sandbox_backend import discard_worker_sandbox, worker_sandbox, worker_sandbox_stats
from judge.problems.models import Problem, TestSet
from judge.problems.queries import load_benchmark, load_cases, problem_spec
from judge.submissions import fairshare, push, speed
from judge.submissions.composition import builds_on, reference_code, solved_solutions
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.services.claims import Heartbeat, claim_submission, park_submission, release_parked
from judge.submissions.services.intake import CUSTOM_UNAVAILABLE, Delivery, delivery, example_inputs, stepped_back
from judge.submissions.signals import verdict_recorded
from judge.submissions.workers import report_sandbox_pool
from sandbox.backends.base import SandboxError

log = logging.getLogger(__name__)

# The speed measurement's Celery task (judge.grading.tasks) takes this name; it is sent by name.
SPEED_TASK = "judge.submissions.tasks.measure_speed"


def grade_submission(submission_id: int, capped: bool = True, band: int | None = None) -> bool:
    """Grade one submission if it can be claimed; True if this call recorded a verdict.

    ``capped`` (all but staff rejudges): refused while its user is at their cap, it is parked.  ``band``: the
    fair-share band it was sent with; one whose student is over that share now steps back (``stepped_back``)."""
    # One statement reads what the fair-share check and the claim need (its counts only for that check).
    found = delivery(submission_id, counts=capped and band is not None and bool(settings.REDIS_URL))
    if found is None:
        return False
    with bound_request_id(found.request_id or ""):  # its lines carry the id of the request that made it
        return _grade_submission(submission_id, capped, band, found)


def _grade_submission(submission_id: int, capped: bool, band: int | None, found: Delivery) -> bool:
    if capped and stepped_back(submission_id, band, found):
        return False
    token = claim_submission(submission_id, capped=capped, user_id=found.user_id)
    if token is None:
        if capped:
            park_submission(submission_id)
        return False
    started = time.monotonic()
    push.publish_status(submission_id, Status.RUNNING)
    submission = claimed_submission(submission_id)
    log.info(
        "submission %s claimed (%s of %s, attempt %s)",
        submission_id,
        submission.kind,
        submission.problem.slug,
        submission.attempts,
    )
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


# What grading reads of a claimed submission, its problem and its test set (attribute names).  The problem's
# statement, drafts and files (16 KB of text and JSON) and the rest of the rows are left unread; a field left
# out is still read when something asks for it, with a query of its own.
GRADING_FIELDS: dict[type[models.Model], tuple[str, ...]] = {
    Submission: (
        "id",
        "user_id",
        "problem_id",
        "test_set_id",
        "kind",
        "code",
        "status",
        "draw",
        "client_address",
        "attempts",
        "custom_inputs",
    ),
    Problem: ("id", "slug", "spec", "solution_code", "current_test_set_id"),
    TestSet: ("id", "version"),
}
ALIASES = {Submission: "s", Problem: "p", TestSet: "t"}


def _columns(model: type[models.Model]) -> list[Field]:
    """``model``'s fields that grading reads, in the model's order (``Model.from_db`` takes them so)."""
    return [field for field in model._meta.concrete_fields if field.attname in GRADING_FIELDS[model]]


@functools.cache
def _claimed_query() -> str:
    selected = ", ".join(
        f"{ALIASES[model]}.{connection.ops.quote_name(field.column)}" for model in ALIASES for field in _columns(model)
    )
    return (
        f"SELECT {selected} FROM submissions_submission s "  # noqa: S608  (our own columns; the id is a parameter)
        "JOIN problems_problem p ON p.id = s.problem_id JOIN problems_testset t ON t.id = s.test_set_id "
        "WHERE s.id = %s"
    )


def claimed_submission(submission_id: int) -> Submission:
    """The submission with its problem and test set, as grading reads them: one statement written once per
    process, whose row becomes the three model instances as the ORM would make them (each field's database
    converters applied, ``Model.from_db``).  The ORM's query with ``select_related`` and ``only`` cost 1.1 ms
    of the worker's CPU per Submit to compile and read, this a fifth of that."""
    with connection.cursor() as cursor:
        cursor.execute(_claimed_query(), [submission_id])
        row = cursor.fetchone()
    if row is None:
        raise Submission.DoesNotExist(f"submission {submission_id} is gone")
    values = iter(row)
    made = {}
    for model, alias in ALIASES.items():
        fields = _columns(model)
        converted = [_from_db(field, alias, next(values)) for field in fields]
        made[model] = model.from_db(connection.alias, [field.attname for field in fields], converted)
    submission = made[Submission]
    assert isinstance(submission, Submission)
    submission.problem, submission.test_set = made[Problem], made[TestSet]  # type: ignore[assignment]  # made as those models
    return submission


def _from_db(field: Field, alias: str, value: Any) -> Any:
    """A column's value as the ORM gives it: the backend's converters, then the field's (as its compiler does)."""
    column = field.get_col(alias)
    for converter in [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)]:
        value = converter(value, column, connection)
    return value


def _grade_claimed(submission: Submission, token: uuid.UUID) -> bool:
    if submission.attempts > settings.MAX_GRADING_ATTEMPTS:
        report = GradeReport(Verdict.INTERNAL_ERROR, "grading was interrupted too many times; please submit again")
        return record_verdict(submission.pk, token, report)
    # ``from solved import ...``: this student's own accepted solutions of the problems this one builds on.
    # (A problem that builds on nothing needs no student: their row is not read.)
    solved = solved_solutions(submission.user, submission.problem) if builds_on(submission.problem) else {}
    with Heartbeat(submission.pk, token):
        if submission.is_custom:
            cases, refused = custom_cases(submission)
            if refused is not None:
                return record_verdict(submission.pk, token, refused)
        else:
            cases = draw_cases(
                list(cached_cases(submission.test_set_id, submission.test_set.version, submission.kind == Kind.RUN)),
                submission.draw,
            )
        report = grade_with_retries(
            submission.code,
            problem_spec(submission.problem),
            cases,
            solved={slug: s.code for slug, s in solved.items()},
        )
    if solved:  # which of their submissions it imported, in loading order (a list: jsonb reorders keys)
        report.sandbox["solved"] = [[slug, s.pk] for slug, s in solved.items()]
    recorded = record_verdict(submission.pk, token, report)
    report_sandbox_pool(worker_sandbox_stats(), str(report.sandbox.get("numpy", "")))
    if not recorded:
        log.warning("submission %s was reclaimed while this worker graded it; result discarded", submission.pk)
        return recorded
    log.info("submission %s graded: %s in %.0f ms", submission.pk, report.verdict or "no verdict", report.time_ms)
    if report.verdict == Verdict.ACCEPTED and submission.kind == Kind.SUBMIT and settings.MEASURE_SPEED:
        enqueue_speed(submission.pk)
    return recorded


def enqueue_speed(submission_id: int) -> bool:
    """Measure an accepted Submit's speed later, as a task of its own on the speed lane, which only the speed
    worker takes (one at a time, at the lowest CPU priority): its up to 18 timed sandbox jobs (seconds) must never
    hold a slot the next students' verdicts need.  A message the broker loses costs only the figure, and no
    sweep sends it again: the page says it was not measured once ``SPEED_GIVE_UP_S`` have passed."""
    return send_task(SPEED_TASK, submission_id, queue=Lane.SPEED)


def measure_submission_speed(submission_id: int) -> SpeedReport | None:
    """The speed task: time the Submit if it is still an accepted Submit without a figure (a rejudge may have
    refused it meanwhile, or a repeated message found it measured)."""
    submission = (
        Submission.objects.select_related("problem", "user", "test_set")
        .filter(pk=submission_id, kind=Kind.SUBMIT, status=Status.DONE, verdict=Verdict.ACCEPTED, speed__isnull=True)
        .first()
    )
    if submission is None or not settings.MEASURE_SPEED:
        return None
    solved = solved_solutions(submission.user, submission.problem)
    report = record_speed(submission, {slug: s.code for slug, s in solved.items()})
    report_sandbox_pool(worker_sandbox_stats())
    return report


def record_speed(submission: Submission, solved: dict[str, str]) -> SpeedReport | None:
    """Measure an accepted Submit's speed against the reference's and store it (after its verdict, which
    the student sees first); when the sandbox failed, the stored figure says it was not measured and why.
    The same code measured before on the same test set is not timed again: its figure is stored once more
    (``speed.figure_of_same_code``), so a Submit sent again costs nothing and gets the figure it got.  New code
    of a student whose code for the problem was timed less than ``SPEED_RETIME_AFTER_S`` ago is not timed: its
    figure says so (``speed.timed_lately``), and the student's standing stays their best timed Submit's."""
    problem = submission.problem
    key = code_key(submission.code, problem.solution_code, solved)
    earlier = speed.figure_of_same_code(submission, key)
    if earlier is not None:
        Submission.objects.filter(pk=submission.pk, speed__isnull=True).update(speed=earlier)
        return SpeedReport(
            earlier["ratio"],
            earlier.get("repeats", 0),
            earlier.get("student_ms", 0.0),
            earlier.get("reference_ms", 0.0),
            earlier.get("message", ""),
            earlier.get("ratio_precise"),
        )
    lately = speed.timed_lately(submission, settings.SPEED_RETIME_AFTER_S)
    if lately is not None:  # a sample of a student's fresh Submits is timed: one per SPEED_RETIME_AFTER_S
        report = SpeedReport(None, message=speed.not_timed_message(lately, settings.SPEED_RETIME_AFTER_S))
        Submission.objects.filter(pk=submission.pk, speed__isnull=True).update(
            speed=report.as_dict() | {"not_timed_after": lately.pk}
        )
        return report
    draws = list(cached_benchmark(submission.test_set_id, submission.test_set.version))
    if not draws or not problem.solution_code.strip():
        report = SpeedReport(None, message="this problem has no benchmark to time it on")
        Submission.objects.filter(pk=submission.pk, speed__isnull=True).update(speed=report.as_dict())
        return report
    # The draws in an order of this submission's own, so no two Submits see their repeats in the same order.
    start = submission.draw % len(draws)
    draws = draws[start:] + draws[:start]
    try:
        report = measure_speed(
            submission.code,
            problem.solution_code,
            problem_spec(problem),
            draws,
            worker_sandbox(),
            solved,
            reference_code(builds_on(problem)),
            others=speed.others_of(submission),
        )
    except SandboxError as exc:
        log.warning("speed of submission %s not measured: %s", submission.pk, exc)
        discard_worker_sandbox()
        report = SpeedReport(None, message="the sandbox failed while timing it")
    stored = report.as_dict() | ({"code_key": key} if report.ratio is not None else {})
    Submission.objects.filter(pk=submission.pk, speed__isnull=True).update(speed=stored)
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
        inputs = validate_inputs(spec, submission.custom_inputs, expectations(example))  # type: ignore[arg-type]  # a Run always has its inputs
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
            return expected_output(
                problem.solution_code, spec, inputs, worker_sandbox(), solved, settings.MAX_OUTPUT_BYTES, example
            )
        except SandboxError as exc:
            failure = exc
            discard_worker_sandbox()
    assert failure is not None  # SANDBOX_TRIES is at least 1
    raise failure


TEST_SETS_KEPT = 128  # two entries (Run, Submit) per published problem: room for a catalogue twice today's


@functools.lru_cache(maxsize=TEST_SETS_KEPT)
def cached_cases(test_set_id: int, version: str, visible_only: bool) -> tuple[Case, ...]:
    """A test set's cases (every draw of the hidden ones), kept by this worker process: a version (content
    hash) never changes, and reading 13 cases' arrays from the database cost a loaded worker 100-200 ms
    per submission."""
    return tuple(load_cases(TestSet.objects.get(pk=test_set_id), visible_only=visible_only))


BENCHMARKS_KEPT = 4  # a problem's draws are up to 24 MB (``engine.speed.BENCH_MAX_BYTES``)


@functools.lru_cache(maxsize=BENCHMARKS_KEPT)
def cached_benchmark(test_set_id: int, version: str) -> tuple[Case, ...]:
    """A test set's speed benchmark, kept by the speed worker's process as ``cached_cases`` keeps tests: reading
    its 24 MB of draws from the database cost the worker 45-85 ms of CPU (and PostgreSQL as much) per measurement."""
    return tuple(load_benchmark(test_set_id))


def preload_test_sets() -> int:
    """Read every published test set into this worker process's cache (a worker process does it in the
    background as it starts); the number of test sets read."""
    published = Problem.objects.filter(published=True, current_test_set__isnull=False).values_list(
        "current_test_set_id", "current_test_set__version"
    )[: TEST_SETS_KEPT // 2]
    for test_set_id, version in published:
        for visible_only in (True, False):
            cached_cases(test_set_id, version, visible_only)
    return len(published)


def open_sandbox_ahead() -> None:
    """Open this worker process's sandbox before its first submission arrives."""
    try:
        worker_sandbox()
        report_sandbox_pool(worker_sandbox_stats())
    except SandboxError:  # the first submission tries again, with the usual retries
        log.warning("could not open the sandbox ahead of the first submission", exc_info=True)
    except DatabaseError:  # a database not there yet: the first verdict reports the sandbox
        log.warning("could not record this process's sandbox", exc_info=True)


def grade_with_retries(
    code: str, spec, cases, tries: int | None = None, solved: dict[str, str] | None = None
) -> GradeReport:
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


def grade_with_sandbox(
    code: str, spec, cases, sandbox, tries: int | None = None, solved: dict[str, str] | None = None
) -> GradeReport:
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
    return GradeReport(
        Verdict.INTERNAL_ERROR,
        f"the sandbox failed {tries} time{'s' if tries != 1 else ''} while grading ({failure}); "
        "this is the judge's fault, not your code's: please submit again",
    )
