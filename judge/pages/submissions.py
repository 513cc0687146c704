from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from engine.verdicts import Verdict
from judge.accounts.limits import client_address
from judge.authoring import reports
from judge.authoring.models import ReportKind
from judge.courses import desk
from judge.courses.access import get_work_for_staff
from judge.courses.notes import due_notes
from judge.courses.release import Hold, hold_on
from judge.courses.services import CourseError
from judge.display import results
from judge.display.custom_inputs import CUSTOM, custom_fields, posted_texts
from judge.display.diffs import code_diff
from judge.lib.validation import SubmissionRejected
from judge.pages.problem_page import problem_page
from judge.problems.queries import get_problem_for_user
from judge.regrades import services as regrades
from judge.solutions.models import PublishedSolution
from judge.submissions import push, speed
from judge.submissions.limits import RateLimited
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.queries import get_submission_for_user
from judge.submissions.services.intake import CustomInputRejected, queue_position, take_submission
from judge.submissions.workers import cached_grading_state, waited_too_long


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


@login_required
@require_POST
def submit(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    upload = request.FILES.get("file")
    code = upload.read(1 << 20) if upload else request.POST.get("code", "")
    custom = request.POST.get("kind") == CUSTOM
    kind = KINDS.get(request.POST.get("kind", ""), Kind.SUBMIT)
    inputs = posted_texts(request.POST) if custom else None
    try:
        submission = take_submission(request, problem, code, kind, inputs, click_key(request), client_address(request))
    except CustomInputRejected as exc:
        return refused(request, problem, code, "fix the custom input", status=400, custom_errors=exc.errors)
    except RateLimited as exc:
        response = refused(request, problem, code, str(exc), status=429)
        response["Retry-After"] = str(exc.retry_after_s)
        return response
    except SubmissionRejected as exc:
        return refused(request, problem, code, str(exc), status=400)
    return accepted(request, submission)


KINDS = {Kind.RUN: Kind.RUN, CUSTOM: Kind.RUN, Kind.REVIEW: Kind.REVIEW}  # the button's value -> what it makes


def click_key(request) -> uuid.UUID | None:
    """The key the page made for this click (editor.js per click; the form without JavaScript per page)."""
    try:
        return uuid.UUID(request.POST.get("click_key", ""))
    except ValueError:
        return None


def accepted(request, submission: Submission):
    if is_htmx(request) and submission.kind == Kind.SUBMIT:  # the notes above the editor count Submits left
        return render(
            request,
            "submissions/_accepted.html",
            status_context(submission) | {"due_notes": due_notes(request.user, submission.problem, timezone.now())},
        )
    if is_htmx(request):
        return render(request, "submissions/_status.html", status_context(submission))
    return redirect("submission-detail", submission.pk)


def refused(request, problem, code, error: str, status: int, custom_errors: dict[str, str] | None = None):
    """Not submitted: the reason in the result panel (htmx) or above the editor, code kept; a refused
    custom input also marks each field it refused."""
    texts = posted_texts(request.POST) if custom_errors is not None else None
    if is_htmx(request):
        # A plain rejection keeps htmx's default swap (200); a rate limit answers 429, which site.js swaps too.
        fields = custom_fields(problem, texts, custom_errors) if custom_errors is not None else []
        return render(
            request,
            "submissions/_rejected.html",
            {
                "error": error,
                "custom_fields": fields,
                "whole_form": (custom_errors or {}).get("", ""),
            },
            status=200 if status == 400 else status,
        )
    return problem_page(
        request,
        problem,
        code=code if isinstance(code, str) else None,
        error=error,
        status=status,
        custom_texts=texts,
        custom_errors=custom_errors,
        review=request.POST.get("kind") == Kind.REVIEW,
    )


def status_context(submission: Submission, hold: Hold | None = None) -> dict:
    """What the status fragment shows; with a ``hold`` (``courses.release``: the author's assignment has not
    released grades yet), only that it was graded and how the visible examples went, and when grades come."""
    final = submission.is_final
    if final and hold is not None:
        rows = [row for row in results.result_rows(submission) if not row.hidden]
        for row in rows:
            row.misconception = ""  # named from the whole Submit, hidden tests included
        return {
            "submission": submission,
            "held": hold,
            "position": None,
            "grading_stopped": False,
            "rows": rows,
            "error_line": None,
            "speed": None,
            "speed_shown": False,
            "speed_coming": None,
        }
    return {
        "submission": submission,
        "position": queue_position(submission),
        "grading_stopped": grading_stopped(submission),
        "rows": results.result_rows(submission) if final else [],
        "error_line": results.error_line(submission) if final else None,
    } | speed_context(submission)


SPEED_POLL_S = 3  # how often a page showing "being measured" asks again (a figure takes seconds to minutes)


def speed_context(submission: Submission) -> dict:
    """An accepted Submit's speed: where its figure stands, or that it is still being measured."""
    final = submission.is_final
    return {
        "submission": submission,
        "speed": speed.standing(submission) if final and submission.speed else None,
        "speed_shown": final and submission.speed is not None and submission.verdict == Verdict.ACCEPTED,
        "speed_coming": speed_coming(submission),
        "speed_poll_s": SPEED_POLL_S,
    }


def grading_stopped(submission: Submission) -> bool:
    """A queued submission that has waited ``WORKER_SILENT_AFTER_S`` while no grading worker was heard from for
    as long: the student is told, not shown a position (a running one is watched by its claim's own heartbeat
    and the recovery sweep)."""
    if submission.status != Status.QUEUED or not waited_too_long(submission.created_at):
        return False  # a worker just starting has as long as a silence takes before anyone is told
    state = cached_grading_state()
    return state is not None and not state.running


def speed_coming(submission: Submission) -> str | None:
    """For an accepted Submit without a figure yet: "pending" while the worker has still to time it (after every
    waiting verdict: ``grading.enqueue_speed``), "lost" once ``SPEED_GIVE_UP_S`` have passed without one (its
    message was lost, so none will come); None otherwise."""
    if not (
        submission.is_final
        and submission.speed is None
        and submission.kind == Kind.SUBMIT
        and submission.verdict == Verdict.ACCEPTED
        and settings.MEASURE_SPEED
    ):
        return None
    finished = submission.finished_at
    if finished is None or (timezone.now() - finished).total_seconds() < settings.SPEED_GIVE_UP_S:
        return "pending"
    return "lost"


@login_required
def submission_detail(request, pk: int):
    submission = get_submission_for_user(request.user, pk)
    overall, lines = desk.feedback_on(submission)
    own = submission.user_id == request.user.pk
    if own:
        desk.mark_read(request.user, submission)  # read now; this page still marks which were new
    else:  # site staff: a course's student's work read outside the desk is in that course's audit log too
        desk.record_site_reading(
            request.user, submission, f"submission #{submission.pk} on {submission.problem.slug} (site staff)"
        )
    hold = hold_on(request.user, submission)
    return render(
        request,
        "submissions/detail.html",
        status_context(submission, hold)
        | {
            "overall": overall,
            "lines": lines,
            "can_reply": own,
            "regrade": regrades.askable(request.user, submission) if own and hold is None else None,
            # An accepted Submit of one's own may be published for those who solved the problem (judge/solutions);
            # not while its grade is held: the offer would tell the student it was accepted.
            "publishable": (
                own and hold is None and submission.kind == Kind.SUBMIT and submission.verdict == Verdict.ACCEPTED
            ),
            "publication": PublishedSolution.objects.filter(submission=submission).first() if own else None,
            "regrade_requests": regrades.requests_on(submission) if own else [],
            "report_kinds": ReportKind.choices,
            "report_url": reverse("problem-report", args=[submission.pk]),
            "my_reports": reports.reports_of(request.user, submission),
        },
    )


@login_required
@require_POST
def report_problem(request, pk: int):
    """Report that the submission's problem itself is wrong (a test, the statement), for its authors: by the
    submission's author, or by a course's staff from a student's work (``course`` posted)."""
    course = request.POST.get("course", "")
    if course.isdigit():
        _, submission = get_work_for_staff(request.user, int(course), pk)
        back = reverse("desk-submission", args=[int(course), pk])
    else:
        submission = get_submission_for_user(request.user, pk)
        back = reverse("submission-detail", args=[pk])
    try:
        reports.report_problem(
            request.user,
            submission.problem,
            request.POST.get("kind", ""),
            request.POST.get("message", ""),
            submission,
            bool(request.POST.get("share_code")),
        )
    except reports.ReportRefused as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, "Reported to the problem's authors; their answer will appear here.")
    return redirect(back + "#report")


@login_required
@require_POST
def feedback_reply(request, pk: int):
    """The student's one answer to a comment on their own submission."""
    try:
        feedback = desk.reply_to_feedback(request.user, pk, request.POST.get("body", ""))
    except CourseError as error:
        return HttpResponseBadRequest(error.messages[0])
    return redirect(reverse("submission-detail", args=[feedback.submission_id]) + f"#feedback-{feedback.pk}")


@login_required
def submission_status(request, pk: int):
    """The live part of a submission, which the page asks for until the verdict is in.

    With ``?wait=<the status the page shows>`` it is a long poll: the answer waits
    until the status differs (the worker's Redis message wakes it; without Redis
    the row is re-read every ``PUSH_DB_POLL_S``), at most ``PUSH_WAIT_S``, or
    ``PUSH_QUEUED_WAIT_S`` while queued so the queue position moves.
    """
    submission = get_submission_for_user(request.user, pk)
    shown = request.GET.get("wait")
    if shown in (Status.QUEUED, Status.RUNNING) and submission.status == shown:
        timeout = settings.PUSH_QUEUED_WAIT_S if shown == Status.QUEUED else settings.PUSH_WAIT_S
        if push.next_event(pk, shown, timeout).moved:
            submission = Submission.objects.select_related("problem", "user").get(pk=pk)
    return render(request, "submissions/_status.html", status_context(submission, hold_on(request.user, submission)))


@login_required
def submission_speed(request, pk: int):
    """The speed line alone, which the page asks for every few seconds while it says "being measured"."""
    submission = get_submission_for_user(request.user, pk)
    if hold_on(request.user, submission) is not None:  # any figure would tell a held grade: the Submit was accepted
        return render(request, "submissions/_speed.html", {"submission": submission})
    return render(request, "submissions/_speed.html", speed_context(submission))


@login_required
def submission_diff(request):
    try:
        older_pk, newer_pk = int(request.GET["a"]), int(request.GET["b"])
    except (KeyError, ValueError):
        return HttpResponseBadRequest("choose two submissions to compare")
    older = get_submission_for_user(request.user, older_pk)
    newer = get_submission_for_user(request.user, newer_pk)
    if older.created_at > newer.created_at:
        older, newer = newer, older
    for theirs in {s.user_id: s for s in (older, newer) if s.user_id != request.user.pk}.values():  # site staff
        desk.record_site_reading(request.user, theirs, f"change from #{older.pk} to #{newer.pk} (site staff)")
    return render(request, "submissions/diff.html", {"older": older, "newer": newer, "lines": code_diff(older, newer)})
