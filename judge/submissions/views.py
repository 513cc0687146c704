from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from judge.problems.views import get_problem_for_user
from judge.submissions.models import Kind, Submission
from judge.submissions.services import SubmissionRejected, queue_position, submit_solution


def get_submission_for_user(user, pk: int) -> Submission:
    """A student sees only their own submissions; staff see all."""
    submission = get_object_or_404(Submission.objects.select_related("problem", "user"), pk=pk)
    if not (user.is_staff or submission.user_id == user.pk):
        raise Http404("No such submission.")
    return submission


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
        return render(request, "problems/detail.html", {
            "problem": problem, "error": str(exc), "code": code if isinstance(code, str) else "",
        }, status=400)
    return redirect(submission)


@login_required
def submission_detail(request, pk: int):
    submission = get_submission_for_user(request.user, pk)
    return render(request, "submissions/detail.html", {
        "submission": submission, "position": queue_position(submission),
    })
