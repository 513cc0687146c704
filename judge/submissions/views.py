from __future__ import annotations

import difflib

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from judge.problems.views import get_problem_for_user, problem_page
from judge.submissions import display
from judge.submissions.models import Kind, Submission
from judge.submissions.services import SubmissionRejected, queue_position, submit_solution


def get_submission_for_user(user, pk: int) -> Submission:
    """A student sees only their own submissions; staff see all."""
    submission = get_object_or_404(Submission.objects.select_related("problem", "user"), pk=pk)
    if not (user.is_staff or submission.user_id == user.pk):
        raise Http404("No such submission.")
    return submission


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


@login_required
@require_POST
def submit(request, slug: str):
    problem = get_problem_for_user(request.user, slug)
    upload = request.FILES.get("file")
    code = upload.read(1 << 20) if upload else request.POST.get("code", "")
    kind = Kind.RUN if request.POST.get("kind") == Kind.RUN else Kind.SUBMIT
    try:
        submission = submit_solution(request.user, problem, code, kind)
    except SubmissionRejected as exc:
        if is_htmx(request):
            return render(request, "submissions/_rejected.html", {"error": str(exc)})
        return problem_page(request, problem, code=code if isinstance(code, str) else None, error=str(exc), status=400)
    if is_htmx(request):
        return render(request, "submissions/_status.html", status_context(submission))
    return redirect(submission)


def status_context(submission: Submission) -> dict:
    final = submission.is_final
    return {
        "submission": submission,
        "position": queue_position(submission),
        "rows": display.result_rows(submission) if final else [],
        "error_line": display.error_line(submission) if final else None,
    }


@login_required
def submission_detail(request, pk: int):
    submission = get_submission_for_user(request.user, pk)
    return render(request, "submissions/detail.html", status_context(submission))


@login_required
def submission_status(request, pk: int):
    """The live part of a submission: polled by htmx until the verdict is in."""
    submission = get_submission_for_user(request.user, pk)
    return render(request, "submissions/_status.html", status_context(submission))


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
    lines = difflib.unified_diff(older.code.splitlines(), newer.code.splitlines(),
                                 f"#{older.pk}", f"#{newer.pk}", lineterm="", n=3)
    return render(request, "submissions/diff.html", {
        "older": older, "newer": newer, "lines": [(_diff_class(line), line) for line in lines],
    })


def _diff_class(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "file"
    return {"+": "added", "-": "removed", "@": "hunk"}.get(line[:1], "same")
