"""Regrade requests' pages: a student asks and writes again; a course's staff see the queue, answer, take and
resolve. Each view checks access with the courses' helpers, parses input, calls one service, redirects."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from judge.courses.access import READ_ALL, get_course_for_user
from judge.courses.models import Assignment, Membership
from judge.courses.services import CourseError
from judge.courses.timezones import activate_for
from judge.regrades import services
from judge.regrades.models import RegradeRequest, RegradeStatus
from judge.submissions.queries import get_submission_for_user


def number(value: str) -> int | None:
    return int(value) if value.isdigit() else None


@login_required
@require_POST
def ask(request, pk: int):
    """The student asks for a regrade of their Submit (the submission page's form)."""
    submission = get_submission_for_user(request.user, pk)
    try:
        services.ask_regrade(
            request.user, submission, number(request.POST.get("assignment", "")), request.POST.get("message", "")
        )
    except CourseError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "Your regrade request was sent to the course's staff.")
    return redirect(reverse("submission-detail", args=[pk]) + "#regrade")


@login_required
@require_POST
def follow_up(request, request_pk: int):
    found = get_object_or_404(RegradeRequest, pk=request_pk, student=request.user)
    try:
        services.follow_up(request.user, found, request.POST.get("message", ""))
    except CourseError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(reverse("submission-detail", args=[found.submission_id]) + "#regrade")


@login_required
def queue(request, pk: int):
    course, role = get_course_for_user(request.user, pk, READ_ALL)
    activate_for(request.user)
    status = request.GET.get("status", RegradeStatus.OPEN)
    assignment, assignee = number(request.GET.get("assignment", "")), number(request.GET.get("assignee", ""))
    found = services.queue(course, status, assignment, assignee)
    counts = {s: services.queue(course, s).count() for s in RegradeStatus.values}
    staff = Membership.objects.filter(course=course, role__in=READ_ALL).select_related("user")
    return render(
        request,
        "regrades/queue.html",
        {
            "course": course,
            "role": role,
            "requests": found[:300],
            "status": status,
            "statuses": RegradeStatus.choices,
            "counts": counts,
            "assignment": assignment,
            "assignee": assignee,
            "staff": staff,
            "assignments": Assignment.objects.filter(course=course),
        },
    )


@login_required
def detail(request, pk: int, request_pk: int):
    course, role = get_course_for_user(request.user, pk, READ_ALL)
    activate_for(request.user)
    found = get_object_or_404(
        RegradeRequest.objects.select_related("student", "assignment", "submission__problem", "assignee"),
        course=course,
        pk=request_pk,
    )
    if request.method == "POST":
        act(request, found)
        return redirect("regrade-detail", pk, request_pk)
    return render(
        request,
        "regrades/detail.html",
        {"course": course, "role": role, "r": found, "conversation": found.messages.select_related("author")},
    )


def act(request, found: RegradeRequest) -> None:
    action = request.POST.get("action", "")
    try:
        if action == "answer":
            services.answer(request.user, found, request.POST.get("message", ""))
        elif action == "take":
            services.take(request.user, found)
        elif action == "resolve":
            points = None
            if request.POST.get("change") == "1":
                try:
                    points = float(request.POST.get("points", ""))
                except ValueError:
                    raise CourseError("Give the points as a number.") from None
            services.resolve(request.user, found, request.POST.get("message", ""), request.POST.get("kind", ""), points)
        else:
            raise Http404("No such action.")
    except CourseError as error:
        for message in error.messages:
            messages.error(request, message)
