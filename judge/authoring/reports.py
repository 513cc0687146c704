"""Reports that something is wrong with a problem itself (a test, the statement), filed by a student or a course's
staff from a submission, and answered by the problem's authors in the workbench.

Privacy: a report carries the submission it came from, so that an author can see what the reporter saw (the
verdict, which tests failed). Its code is shown only when the person who wrote it ticked "share my code with the
problem's authors"; a member of a course's staff reporting from a student's submission cannot share that
student's code. Authors are the site's staff, who could already open any submission by its number.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from judge.authoring.lifecycle import audit
from judge.authoring.models import Action, ProblemReport, ReportKind, ReportStatus
from judge.problems.models import Problem
from judge.submissions.models import Submission

MAX_MESSAGE = 2000
MAX_OPEN_PER_REPORTER = 10  # a misbehaving script cannot bury the authors' list


class ReportRefused(Exception):
    def __init__(self, messages: list[str] | str):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


def report_problem(
    reporter, problem: Problem, kind: str, message: str, submission: Submission | None = None, share_code: bool = False
) -> ProblemReport:
    """File a report; the caller has checked that ``reporter`` may read ``submission``."""
    message = (message or "").strip()
    errors = []
    if kind not in ReportKind.values:
        errors.append(f"Choose what is wrong: {', '.join(str(label) for label in ReportKind.labels)}.")
    if not message:
        errors.append("Say what is wrong, so that the problem's authors can check it.")
    elif len(message) > MAX_MESSAGE:
        errors.append(f"Keep the report under {MAX_MESSAGE} characters.")
    if submission is not None and submission.problem_id != problem.pk:
        errors.append("That submission is for another problem.")
    if ProblemReport.objects.filter(reporter=reporter, status=ReportStatus.OPEN).count() >= MAX_OPEN_PER_REPORTER:
        errors.append(f"You have {MAX_OPEN_PER_REPORTER} reports still open; wait for an answer first.")
    if errors:
        raise ReportRefused(errors)
    own = submission is not None and submission.user_id == reporter.pk
    return ProblemReport.objects.create(
        problem=problem,
        submission=submission,
        reporter=reporter,
        kind=kind,
        message=message,
        share_code=bool(share_code and own),
    )


@transaction.atomic
def answer_report(author, report: ProblemReport, answer: str, status: str) -> ProblemReport:
    """An author answers a report, and leaves it answered (more may follow) or closes it."""
    answer = (answer or "").strip()
    if status not in (ReportStatus.ANSWERED, ReportStatus.CLOSED):
        raise ReportRefused("Choose to answer the report or to close it.")
    if status == ReportStatus.ANSWERED and not answer:
        raise ReportRefused("Write an answer for the reporter.")
    if len(answer) > MAX_MESSAGE:
        raise ReportRefused(f"Keep the answer under {MAX_MESSAGE} characters.")
    report.status = status
    if answer:
        report.answer, report.answered_by, report.answered_at = answer, author, timezone.now()
    report.save()
    audit(author, Action.REPORT, report.problem.slug, f"report #{report.pk}: {report.get_status_display()}")
    return report


def open_reports_by_problem() -> dict[int, int]:
    """problem id -> how many of its reports are open (the workbench's list)."""
    rows = ProblemReport.objects.filter(status=ReportStatus.OPEN).order_by().values_list("problem_id")
    counts: dict[int, int] = {}
    for (problem_id,) in rows:
        counts[problem_id] = counts.get(problem_id, 0) + 1
    return counts


def reports_of(reporter, submission: Submission) -> list[ProblemReport]:
    """What this person reported from this submission, with the authors' answers (the submission page shows them)."""
    return list(ProblemReport.objects.filter(reporter=reporter, submission=submission))
