"""Groups on an assignment (``courses.groups``): the staff's page of them, a student's create, join and leave, and a
member reading a teammate's Submit.

A teammate's Submit is shown read-only: its code and its verdict, the verdict only once the assignment's grades
are released for the reader (the same hold as on their own Submits). The test results stay on the author's own
page. Anyone else, a member of another group included, gets 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from judge.courses import groups
from judge.courses.access import CHANGE, READ_ALL, get_assignment_for_user
from judge.courses.models import GroupFormation, GroupMember, Role, StudentGroup
from judge.courses.services import CourseError
from judge.courses.timezones import activate_for
from judge.submissions.models import Kind, Submission


@login_required
def groups_page(request, pk: int, assignment_pk: int):
    """Every group of the assignment and who is in none; the instructor sets the rule and changes groups."""
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk, READ_ALL)
    errors: list[str] = []
    if request.method == "POST":
        if role not in CHANGE:
            raise PermissionDenied("Only instructors change groups.")
        try:
            change_groups(request, assignment)
        except CourseError as error:
            errors = error.messages
        else:
            return redirect("assignment-groups", pk, assignment_pk)
    members = GroupMember.objects.filter(assignment=assignment).select_related("user")
    by_group: dict[int, list] = {}
    for member in members:
        by_group.setdefault(member.group_id, []).append(member)
    grouped = {m.user_id for m in members}
    return render(
        request,
        "courses/groups.html",
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": role,
            "errors": errors,
            "can_change": role in CHANGE,
            "formations": GroupFormation.choices,
            "groups": [(g, by_group.get(g.pk, [])) for g in StudentGroup.objects.filter(assignment=assignment)],
            "alone": [
                m.user
                for m in assignment.course.memberships.filter(role=Role.STUDENT).select_related("user")
                if m.user_id not in grouped
            ],
        },
        status=400 if errors else 200,
    )


def change_groups(request, assignment) -> None:
    post = request.POST
    if "rule" in post:
        size = post.get("group_size", "").strip()
        if size and not size.isdigit():
            raise CourseError("The group size is a whole number (blank: no groups).")
        groups.set_group_rule(
            assignment, request.user, int(size) if size else None, post.get("groups_formed_by", GroupFormation.STAFF)
        )
    elif "remove" in post:
        member = (
            GroupMember.objects.filter(assignment=assignment, pk=post.get("remove") or 0)
            .select_related("group", "user")
            .first()
        )
        if member is None:
            raise CourseError("That student is no longer in that group.")
        groups.remove_from_group(assignment, request.user, member.group, member.user)
    else:
        group = StudentGroup.objects.filter(assignment=assignment, pk=post.get("group") or 0).first()
        names = post.get("students", "").replace(",", " ").split()
        groups.add_to_group(assignment, request.user, names, group)


@login_required
@require_POST
def my_group(request, pk: int, assignment_pk: int):
    """A student creates a group, joins one with its code, or leaves theirs."""
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk)
    if role != Role.STUDENT:
        raise PermissionDenied("Only students join groups; staff form them on the groups page.")
    try:
        if "create" in request.POST:
            group = groups.create_group(assignment, request.user)
            messages.success(request, f"You created a group. Others join it with the code {group.code}.")
        elif "leave" in request.POST:
            groups.leave_group(assignment, request.user)
            messages.success(request, "You left the group.")
        else:
            group = groups.join_group(assignment, request.user, request.POST.get("code", ""))
            messages.success(request, f"You joined group {group.code}.")
    except CourseError as error:
        for message in error.messages:
            messages.error(request, message)
    return redirect("assignment-detail", pk, assignment_pk)


@login_required
def teammate_submission(request, pk: int, assignment_pk: int, submission_pk: int):
    """A Submit of a member of the reader's group on one of the assignment's problems, read-only."""
    assignment, role = get_assignment_for_user(request.user, pk, assignment_pk)
    group = groups.group_of(assignment, request.user) if role == Role.STUDENT else None
    submission = get_object_or_404(
        Submission.objects.select_related("user", "problem"), pk=submission_pk, kind=Kind.SUBMIT
    )
    if group is None or not groups.group_submits(assignment, group).filter(pk=submission.pk).exists():
        raise Http404("No such Submit of your group.")
    activate_for(request.user)
    held = submission.pk in groups.held_for_reader(request.user, [submission])
    return render(
        request,
        "courses/teammate_submission.html",
        {
            "course": assignment.course,
            "assignment": assignment,
            "role": role,
            "submission": submission,
            "held": held,
            "lines": submission.code.splitlines(),
        },
    )
