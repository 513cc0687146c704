"""The course pages. Each view checks the viewer's role in that course (``access``), parses input, calls one
service, renders; dates are shown in the viewer's time zone."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.forms import ModelMultipleChoiceField
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from judge.accounts.limits import CountersUnavailable, Throttled, check_course_signup
from judge.courses import attempts, bulk, desk, groups, live, release, services
from judge.courses.access import CHANGE, READ_ALL, get_assignment_for_user, get_course_for_user
from judge.courses.deadlines import credit_at
from judge.courses.export import gradebook_csv
from judge.courses.forms import AssignmentForm, CourseForm, OverrideForm, RosterForm, SettingsForm, TimeZoneForm
from judge.courses.grades import gradebook, progress_matrix, stuck_students, students_of, window_for
from judge.courses.insights import insights
from judge.courses.leaderboard import course_standings
from judge.courses.models import Assignment, Course, Membership, Override, Release, Role, Section
from judge.courses.pictures import score_histogram, solves_over_time
from judge.courses.similarity import TOO_SHORT_TOKENS, accepted_elsewhere, final_codes, similar_pairs
from judge.courses.timezones import (
    COMMON,
    activate_for,
    choose_time_zone,
    local_times,
    shown,
    utc_offset,
    zone_names,
)
from judge.exports import streaming

GRADEBOOK_PAGE = 100


def error_list(error: services.CourseError) -> list[str]:
    return error.messages


@login_required
def course_list(request):
    activate_for(request.user)
    memberships = Membership.objects.filter(user=request.user).select_related("course")
    return render(
        request,
        "courses/list.html",
        {
            "memberships": memberships,
            "form": CourseForm(),
            "tz_form": TimeZoneForm(initial={"time_zone": activate_for(request.user)}),
            "zones": [(name, utc_offset(name) if name in COMMON else "") for name in zone_names()],
        },
    )


@login_required
@require_POST
def course_create(request):
    if not request.user.is_staff:
        raise PermissionDenied("Only site staff create courses.")
    form = CourseForm(request.POST)
    if not form.is_valid():
        messages.error(request, "A course needs a title (at most 200 characters).")
        return redirect("course-list")
    course = services.create_course(request.user, form.cleaned_data["title"], form.cleaned_data["term"])
    return redirect("course-home", course.pk)


def join(request, code: str = ""):
    """The join form, or a join link (``/courses/join/CODE/``): GET shows what you are joining, POST joins.

    Opened without an account, a join link offers to make one (``join_sign_up``)."""
    if not request.user.is_authenticated:
        if request.method == "POST" or not code:
            return redirect_to_login(request.get_full_path())
        return join_page(request, code, UserCreationForm())
    code = request.POST.get("code", code)
    if request.method == "POST":
        try:
            membership, created = services.join_course(request.user, code)
        except services.CourseError as error:
            return render(request, "courses/join.html", {"code": code, "errors": error_list(error)}, status=400)
        messages.success(
            request, f"You joined {membership.course}." if created else f"You are already in {membership.course}."
        )
        return redirect("course-home", membership.course_id)
    course = Course.objects.filter(join_code=code.strip().upper()).first() if code else None
    return render(request, "courses/join.html", {"code": code, "course": course})


def join_page(request, code: str, form, errors: list[str] | None = None, status: int = 200):
    course = services.course_for_code(code)
    return render(
        request,
        "courses/join.html",
        {"code": code, "course": course, "sign_up": form, "errors": errors or []},
        status=status,
    )


@require_POST
def join_sign_up(request, code: str):
    """A new account made through a course's join link, which then joins the course: counted on the course's
    ceiling, not the address's sign-up limit (a lab of 300 behind one address signs up at once)."""
    if request.user.is_authenticated:
        return redirect("course-join-link", code)
    form: UserCreationForm[User] = UserCreationForm(request.POST)
    course = services.course_for_code(code)
    if course is None or not form.is_valid():
        return join_page(
            request,
            code,
            form,
            [] if course else [("This join link is not valid any more. Ask your instructor for the current one.")],
            400,
        )
    try:
        check_course_signup(request, course.pk)
    except (Throttled, CountersUnavailable) as exc:
        response = join_page(
            request, code, UserCreationForm(), [f"Not signed up: {exc}"], 429 if isinstance(exc, Throttled) else 503
        )
        response["Retry-After"] = str(exc.retry_after_s if isinstance(exc, Throttled) else 60)
        return response
    user, membership = services.sign_up_and_join(form, course)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome, {user.username}: you joined {membership.course}.")
    return redirect("course-home", course.pk)


@login_required
@require_POST
def time_zone(request):
    form = TimeZoneForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a time zone from the list, such as Europe/Paris.")
    else:
        choose_time_zone(request.user, form.cleaned_data["time_zone"])
        messages.success(request, f"Dates are now shown in {form.cleaned_data['time_zone']}.")
    return redirect(
        request.POST.get("next") if str(request.POST.get("next", "")).startswith("/courses/") else "course-list"
    )


@login_required
def course_home(request, pk: int):
    course, role = get_course_for_user(request.user, pk)
    tz = activate_for(request.user)
    now = timezone.now()
    rows = []
    for assignment in Assignment.objects.filter(course=course).prefetch_related("items__problem"):
        window = window_for(assignment, request.user)
        rows.append(
            {
                "assignment": assignment,
                "window": window,
                "open_now": credit_at(window, now, bool(assignment.time_limit_minutes)).counts,
            }
        )
    unread = desk.unread_feedback(request.user, course) if role == Role.STUDENT else 0
    notices = release.unread_notices(request.user, course)
    release.mark_notices_read(request.user, course)  # shown once on this page
    return render(
        request,
        "courses/home.html",
        {
            "course": course,
            "role": role,
            "rows": rows,
            "tz": tz,
            "can_change": role in CHANGE,
            "can_read": role in READ_ALL,
            "unread": unread,
            "feedback": desk.feedback_for_student(request.user, course) if unread else [],
            "notices": notices,
            "join_url": request.build_absolute_uri(reverse("course-join-link", args=[course.join_code])),
        },
    )


@login_required
def course_settings(request, pk: int):
    course, role = get_course_for_user(request.user, pk, CHANGE)
    tz = activate_for(request.user)
    errors = []
    if request.method == "POST":
        if "rotate" in request.POST:
            services.rotate_join_code(course, request.user)
            messages.success(request, "The join code was replaced; the old one no longer works.")
            return redirect("course-settings", pk)
        form = SettingsForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            services.update_course(course, request.user, data["title"], data["term"], data["leaderboard_enabled"])
            messages.success(request, "Saved.")
            return redirect("course-settings", pk)
        errors = [f"{name}: {', '.join(str(m) for m in e)}" for name, e in form.errors.items()]
    form = SettingsForm(
        initial={"title": course.title, "term": course.term, "leaderboard_enabled": course.leaderboard_enabled}
    )
    join_url = request.build_absolute_uri(f"/courses/join/{course.join_code}/")
    return render(
        request,
        "courses/settings.html",
        {
            "course": course,
            "role": role,
            "form": form,
            "errors": errors,
            "join_url": join_url,
            "tz": tz,
            "audit": [
                (shown(a.at), a.user, a.action, local_times(a.summary))
                for a in course.audit.select_related("user")[:50]
            ],
        },
        status=400 if errors else 200,
    )


@login_required
def people(request, pk: int):
    course, role = get_course_for_user(request.user, pk, READ_ALL)
    errors, result = [], None
    if request.method == "POST":
        if role not in CHANGE:
            raise PermissionDenied("Only instructors change the roster.")
        form = RosterForm(request.POST, request.FILES)
        if not form.is_valid():
            errors = ["Choose a CSV file to upload."]
        else:
            try:
                result = services.import_roster(course, request.user, form.cleaned_data["roster"].read())
            except services.CourseError as error:
                errors = error_list(error)
    members = Membership.objects.filter(course=course).select_related("user", "section")
    return render(
        request,
        "courses/people.html",
        {
            "course": course,
            "role": role,
            "members": members,
            "errors": errors,
            "result": result,
            "form": RosterForm(),
            "can_change": role in CHANGE,
        },
        status=400 if errors else 200,
    )


def assignment_values(data: dict) -> dict:
    return {
        k: data.get(k)
        for k in (
            "title",
            "weight",
            "time_limit_minutes",
            "opens_at",
            "due_at",
            "closes_at",
            "late_multiplier",
            "late_penalty_per_day",
            "max_submits",
        )
    } | {
        "late_rule": data.get("late_rule") or "",
        "problem_cap": 1.0 if data.get("problem_cap") is None else data["problem_cap"],
        "release": data.get("release") or Release.AT_ONCE,
    }


@login_required
def assignment_edit(request, pk: int, assignment_pk: int | None = None):
    course, role = get_course_for_user(request.user, pk, CHANGE)
    activate_for(request.user)
    assignment = get_object_or_404(Assignment, course=course, pk=assignment_pk) if assignment_pk else None
    errors = []
    if request.method == "POST":
        form = AssignmentForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                assignment = services.save_assignment(
                    course, request.user, assignment_values(data), list(data["problems"]), assignment
                )
                return redirect("assignment-detail", pk, assignment.pk)
            except services.CourseError as error:
                errors = error_list(error)
        else:
            errors = [
                f"{form.fields[name].label or name}: {' '.join(str(m) for m in e)}"
                if name in form.fields
                else " ".join(str(m) for m in e)
                for name, e in form.errors.items()
            ]
    else:
        initial = {}
        if assignment:
            initial = {k: getattr(assignment, k) for k in assignment_values({})}
            initial["problems"] = [i.problem.slug for i in assignment.items.select_related("problem")]
        form = AssignmentForm(initial=initial)
    chosen = set(request.POST.getlist("problems") if form.is_bound else form.initial.get("problems", []))
    choices = cast(ModelMultipleChoiceField, form.fields["problems"]).queryset
    assert choices is not None  # AssignmentForm sets it
    return render(
        request,
        "courses/assignment_edit.html",
        {
            "course": course,
            "role": role,
            "form": form,
            "assignment": assignment,
            "errors": errors,
            "chosen": chosen,
            "choices": choices.only("slug", "title", "track"),
        },
        status=400 if errors else 200,
    )


@login_required
def assignment_detail(request, pk: int, assignment_pk: int):
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk)
    tz = activate_for(request.user)
    if request.method == "POST" and "start" in request.POST:
        if role != Role.STUDENT or not assignment.time_limit_minutes:
            raise PermissionDenied("Only students start a timed assignment.")
        refusal = timed_start_refusal(window_for(assignment, request.user), timezone.now())
        if refusal:
            messages.error(request, refusal)
        else:
            services.start_timed(assignment, request.user)
        return redirect("assignment-detail", pk, assignment_pk)
    context = {
        "course": assignment.course,
        "assignment": assignment,
        "role": role,
        "tz": tz,
        "can_read": role in READ_ALL,
        "can_change": role in CHANGE,
        "release_label": Release(assignment.release).label,
    }
    if role == Role.STUDENT:
        context |= as_seen_by(assignment, request.user)
    else:
        context |= {"window": window_for(assignment, request.user), "items": assignment.items.select_related("problem")}
    return render(request, "courses/assignment.html", context)


def as_seen_by(assignment: Assignment, student) -> dict:
    """What the assignment page shows this student: their dates, and per problem what they may see of their
    grade now (only how many times they submitted while it is held), with the Submits they have left; their
    group, where the assignment has groups."""
    window = window_for(assignment, student)
    items = list(assignment.items.select_related("problem"))
    me = list(students_of(assignment.course, user_id=student.pk))
    grades, cells = progress_matrix(assignment, me)
    now = timezone.now()
    left = attempts.left_on(assignment, student, now)
    context = {
        "window": window,
        "items": items,
        "release_note": release.release_note(assignment, window, now),
        "override": Override.objects.filter(assignment=assignment, user=student).first(),
    }
    if context["release_note"]:  # held: how many times they submitted, nothing of what grading found
        context["mine_held"] = [(i, cells.get((student.pk, i.problem_id)), left.get(i.problem_id)) for i in items]
    else:
        ticked = desk.rubric_ticked_on(assignment, student)
        context["mine"] = [
            (
                i,
                cells.get((student.pk, i.problem_id)),
                grades.credit(student.pk, i.problem_id),
                ticked.get(i.problem_id, []),
                left.get(i.problem_id),
            )
            for i in items
        ]
        context["my_points"] = points(grades.total(student.pk))
    return context | group_context(assignment, student)


def group_context(assignment: Assignment, student) -> dict:
    """The student's group box: their group, or the forms to make or join one; the group's Submits."""
    box = groups.group_view(assignment, student)
    if box is None or box.group is None:
        return {"group": box}
    submits = list(groups.group_submits(assignment, box.group)[:50])
    held = groups.held_for_reader(student, submits)
    return {"group": box, "group_submits": [(s, s.pk in held) for s in submits]}


@login_required
def assignment_as_student(request, pk: int, assignment_pk: int):
    """The assignment page exactly as one of its students sees it (``?student=<username>``), for the course's
    staff: read-only (nothing on it is posted as the student), in the student's time zone, and audited."""
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    wanted = request.GET.get("student", "").strip()
    member = (
        Membership.objects.filter(course=assignment.course, role=Role.STUDENT, user__username__iexact=wanted)
        .select_related("user")
        .first()
    )
    if member is None:
        messages.error(
            request,
            f"{wanted or 'Nobody'} is not a student of this course."
            if wanted
            else "Choose one of the course's students by username.",
        )
        return redirect("assignment-detail", pk, assignment_pk)
    desk.record_reading(
        assignment.course, request.user, member.user, f"page of {assignment.title!r}, seen as the student"
    )
    tz = activate_for(member.user)
    return render(
        request,
        "courses/assignment.html",
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": Role.STUDENT,
            "tz": tz,
            "as_student": member.user,
            "staff_role": role,
            "can_read": False,
            "can_change": False,
            "release_label": Release(assignment.release).label,
        }
        | as_seen_by(assignment, member.user),
    )


@login_required
def assignment_download(request, pk: int, assignment_pk: int):
    """The assignment's submissions as a zip with a CSV manifest, streamed: per student and problem the Submit
    that counts, or every Submit with ``?every=1``; for the course's staff, audited."""
    assignment, _ = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    every = request.GET.get("every") == "1"
    desk.record_download(
        assignment.course,
        request.user,
        f"{'every Submit' if every else 'the Submits that count'} of {assignment.title!r} as a zip",
    )
    return streaming.download(request, bulk.download(assignment, every))


@login_required
@require_POST
def release_grades(request, pk: int, assignment_pk: int):
    """Staff press Release: students see their grades, and the LMS is sent every score."""
    assignment, _ = get_assignment_for_user(request.user, pk, assignment_pk, CHANGE)
    try:
        done = release.release_assignment(assignment, request.user)
    except services.CourseError as error:
        messages.error(request, error.messages[0])
    else:
        messages.success(
            request,
            f"Grades of {assignment.title} released."
            if done
            else f"Grades of {assignment.title} were released already.",
        )
    return redirect("assignment-detail", pk, assignment_pk)


@login_required
def rubric(request, pk: int, assignment_pk: int):
    """An assignment's rubrics, per problem: the instructor adds and removes items; its TAs read them."""
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    errors = []
    if request.method == "POST":
        if role not in CHANGE:
            raise PermissionDenied("Only instructors change a rubric.")
        errors = save_rubric(request, assignment)
        if not errors:
            return redirect("assignment-rubric", pk, assignment_pk)
    items = list(assignment.items.select_related("problem"))
    rubrics = desk.rubrics_of(assignment)
    return render(
        request,
        "courses/rubric.html",
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": role,
            "errors": errors,
            "can_change": role in CHANGE,
            "problems": [(i.problem, rubrics.get(i.problem_id, [])) for i in items],
        },
        status=400 if errors else 200,
    )


def save_rubric(request, assignment: Assignment) -> list[str]:
    try:
        if "delete" in request.POST:
            desk.delete_rubric_item(assignment, request.user, int(request.POST["delete"] or 0))
            return []
        problem = assignment.items.filter(problem__slug=request.POST.get("problem", "")).first()
        if problem is None:
            return ["Choose one of the assignment's problems."]
        try:
            value = float(request.POST.get("points", ""))
        except ValueError:
            value = None
        desk.add_rubric_item(assignment, request.user, problem.problem, request.POST.get("label", ""), value)
    except (services.CourseError, ValueError) as error:
        return error_list(error) if isinstance(error, services.CourseError) else ["That item does not exist."]
    return []


def timed_start_refusal(window, now) -> str:
    """Why a student may not start their timed window now (their own dates, overrides included), or ""."""
    if window.not_open_at(now):
        return "This assignment has not opened yet."
    if window.closed_at(now):
        return "This assignment has closed."
    return ""


@login_required
def overrides(request, pk: int, assignment_pk: int):
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    activate_for(request.user)
    errors = []
    if request.method == "POST":
        if role not in CHANGE:
            raise PermissionDenied("Only instructors grant extensions.")
        errors = save_override(request, assignment)
        if not errors:
            messages.success(request, "Override saved.")
            return redirect("assignment-overrides", pk, assignment_pk)
    form = OverrideForm(request.POST or None) if errors else OverrideForm()
    return render(
        request,
        "courses/overrides.html",
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": role,
            "form": form,
            "errors": errors,
            "overrides": assignment.overrides.select_related("user", "section"),
            "can_change": role in CHANGE,
            "sections": Section.objects.filter(course=assignment.course),
        },
        status=400 if errors else 200,
    )


def save_override(request, assignment: Assignment) -> list[str]:
    if "delete" in request.POST:
        override = Override.objects.filter(assignment=assignment, pk=request.POST.get("delete")).first()
        if override is None:
            return ["That override no longer exists."]
        services.delete_override(override, request.user)
        return []
    form = OverrideForm(request.POST)
    if not form.is_valid():
        return [f"{form.fields[name].label or name}: {' '.join(str(m) for m in e)}" for name, e in form.errors.items()]
    data = form.cleaned_data
    student = section = None
    if data["student"]:
        student = get_user_model().objects.filter(username__iexact=data["student"]).first()
        if student is None:
            return [f"{data['student']} is not a student in this course."]
    if data["section"]:
        section = Section.objects.filter(course=assignment.course, name=data["section"]).first()
        if section is None:
            return [f"This course has no section named {data['section']}."]
    values = {k: data[k] for k in ("opens_at", "due_at", "closes_at", "late_multiplier", "late_penalty_per_day")}
    values["late_rule"] = data["late_rule"] or ""
    try:
        services.set_override(assignment, request.user, values, data["reason"], student, section, data["staff_note"])
    except services.CourseError as error:
        return error_list(error)
    return []


def section_choice(request, course: Course) -> Section | None:
    wanted = request.GET.get("section", "")
    return Section.objects.filter(course=course, pk=int(wanted)).first() if wanted.isdigit() else None


@login_required
def gradebook_page(request, pk: int):
    course, role = get_course_for_user(request.user, pk, READ_ALL)
    section = section_choice(request, course)
    students = students_of(course, section.pk if section else None)
    pages = max(1, -(-len(students) // GRADEBOOK_PAGE))
    page = min(max(int(request.GET["page"]) if request.GET.get("page", "").isdigit() else 1, 1), pages)
    book = gradebook(course, students=students[(page - 1) * GRADEBOOK_PAGE : page * GRADEBOOK_PAGE])
    link = attempts_link(course.pk)
    rows = [gradebook_row(s, book, link) for s in book.students]
    return render(
        request,
        "courses/gradebook.html",
        {
            "course": course,
            "role": role,
            "book": book,
            "rows": rows,
            "section": section,
            "page": page,
            "pages": pages,
            "sections": Section.objects.filter(course=course),
        },
    )


# The desk's page of a student's attempts on a problem, as a pattern: reversing it for each of 3,000 cells would
# cost the gradebook more than the cells' credit does.
STUDENT, PROBLEM = "999999999", "problem-slug-here"


def attempts_link(course_pk: int) -> str:
    """``judge.pages.desk.student_attempts``'s address with ``{student}`` and ``{slug}`` to fill in."""
    url = reverse("desk-attempts", args=[course_pk, int(STUDENT), PROBLEM])
    return url.replace(STUDENT, "{student}").replace(PROBLEM, "{slug}")


def gradebook_row(student, book, link: str) -> dict:
    """A student's credit cells, each opening their attempts on that problem, and assignment totals as one piece
    of HTML: rendering 3,000 cells through template tags took half of a 100-row page's time."""
    cells = []
    for grades in book.assignments:
        cells += [
            credit_cell(grades.credit(student.user_id, pid)) + (link.format(student=student.user_id, slug=slug),)
            for pid, slug, _ in grades.problems
        ]
        cells.append(("num", points(grades.total(student.user_id)), ""))
    # Every class, text and address here is made from numbers and slugs (``[-a-zA-Z0-9_]``, the URL's own
    # converter), never from free input: no escaping needed, and format_html on 3,000 cells costs a page ~15 ms.
    return {
        "student": student,
        "cells": mark_safe(  # noqa: S308
            "".join(
                f'<td class="{css}"><a href="{href}">{text or "·"}</a></td>'
                if href
                else f'<td class="{css}">{text}</td>'
                for css, text, href in cells
            )
        ),
        "percent": round(book.course_total(student.user_id) * 100),
    }


def points(total: float) -> str:
    """As ``floatformat:"-2"``: two decimals, none for a whole number."""
    return str(round(total)) if total == round(total) else f"{total:.2f}"


def credit_cell(credit) -> tuple[str, str]:
    """(css class, text) of one gradebook cell; "L" late, "✎" points given by hand."""
    if not credit.counts and not credit.adjusted:
        return "num", ""
    text = (f"{credit.value:.2f}".rstrip("0").rstrip(".") or "0") + (" L" if credit.late else "")
    css = "num" + (" late" if credit.late else "") + (" adjusted" if credit.adjusted else "")
    return css, text + (" ✎" if credit.adjusted else "")


@login_required
def gradebook_download(request, pk: int):
    course, _ = get_course_for_user(request.user, pk, READ_ALL)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="gradebook-course-{course.pk}.csv"'
    gradebook_csv(gradebook(course), response)
    return response


def progress_cell(progress) -> tuple[str, str]:
    """(css class, text) of one matrix cell: solved (when first, late or practice), attempted, or not started."""
    if progress is None:
        return "not-started", "·"
    if not progress.first_solved:
        return "attempted", f"✗ {progress.attempts}"
    when = timezone.localtime(progress.first_solved).strftime("%H:%M")
    mark = " late" if progress.credit.late else "" if progress.credit.counts else " (practice)"
    return f"solved{' late' if progress.credit.late else ''}", f"✓ {when}{mark} · {progress.attempts}"


def matrix_row(student, grades, cells, link: str) -> dict:
    mine = [cells.get((student.user_id, pid)) for pid, _, _ in grades.problems]
    total = grades.total(student.user_id)
    shown = [
        progress_cell(c) + (link.format(student=student.user_id, slug=slug),)
        for c, (_, slug, _) in zip(mine, grades.problems)
    ]
    return {
        "student": student,
        "cells": format_html_join(
            "", '<td class="{}"><a href="{}">{}</a></td>', ((css, href, text) for css, text, href in shown)
        ),
        "solved": sum(1 for c in mine if c and c.first_solved),
        "total": total,
        "credit": f"{total:.2f}".rstrip("0").rstrip("."),
    }


@login_required
def progress(request, pk: int, assignment_pk: int):
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    activate_for(request.user)
    # ?wait=<fingerprint shown>: a long poll, answered once a Submit of the assignment changes (``live``).
    shown = request.GET.get("wait")
    version = live.wait_for_change(assignment, shown, settings.PUSH_WAIT_S) if shown else live.fingerprint(assignment)
    if shown and not Assignment.objects.filter(pk=assignment.pk).exists():
        raise Http404("This assignment was deleted.")  # while the request waited
    if shown:
        assignment.refresh_from_db()  # its dates may have changed while the request waited
    section = section_choice(request, assignment.course)
    students = students_of(assignment.course, section.pk if section else None)
    grades, cells = progress_matrix(assignment, students)
    sort = request.GET.get("sort", "name")
    link = attempts_link(assignment.course_id)
    rows = [matrix_row(s, grades, cells, link) for s in students]
    if sort == "solved":
        rows.sort(key=lambda r: (-r["solved"], r["student"].username))
    elif sort == "credit":
        rows.sort(key=lambda r: (-r["total"], r["student"].username))
    minutes = int(request.GET["stuck_minutes"]) if request.GET.get("stuck_minutes", "").isdigit() else 30
    stuck = stuck_students(assignment, students, timezone.now() - timedelta(minutes=minutes))
    template = "courses/_matrix.html" if request.GET.get("fragment") else "courses/progress.html"
    return render(
        request,
        template,
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": role,
            "grades": grades,
            "rows": rows,
            "sort": sort,
            "section": section,
            "sections": Section.objects.filter(course=assignment.course),
            "stuck": stuck,
            "stuck_minutes": minutes,
            "version": version,
            "histogram": score_histogram(grades, students),
            "solves": solves_over_time(cells, assignment.due_at),
        },
    )


@login_required
def assignment_insights(request, pk: int, assignment_pk: int):
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    return render(
        request,
        "courses/insights.html",
        {"course": assignment.course, "assignment": assignment, "role": role, "problems": insights(assignment)},
    )


@login_required
def course_leaderboard(request, pk: int):
    """The site's standings, restricted to this course's students (or a section), with the same privacy choice."""
    course, role = get_course_for_user(request.user, pk)
    if not course.leaderboard_enabled:
        raise Http404("The instructor turned this course's leaderboard off.")
    section = section_choice(request, course)
    board, standings = course_standings(course, section)
    return render(
        request,
        "courses/leaderboard.html",
        {
            "course": course,
            "role": role,
            "standings": standings,
            "board": board,
            "section": section,
            "sections": Section.objects.filter(course=course),
        },
    )


@login_required
def similarity(request, pk: int, assignment_pk: int):
    """Pairs of students' final submissions to one problem, most similar first; for instructors only."""
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, CHANGE)
    items = list(assignment.items.select_related("problem"))
    chosen = next((i.problem for i in items if i.problem.slug == request.GET.get("problem")), None)
    report, took, count = None, None, 0
    if chosen is not None and request.GET.get("run"):
        started = time.perf_counter()
        codes = final_codes(assignment, chosen)
        report = similar_pairs(codes, chosen.starter_code, chosen.solution_code, accepted_elsewhere(assignment, chosen))
        count = len(codes)
        took = time.perf_counter() - started
        desk.record_comparison(assignment.course, request.user, count, f"on {chosen.slug} (similarity)")
    return render(
        request,
        "courses/similarity.html",
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": role,
            "items": items,
            "chosen": chosen,
            "report": report,
            "took": took,
            "count": count,
            "too_short_tokens": TOO_SHORT_TOKENS,
        },
    )
