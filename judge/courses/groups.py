"""Groups on an assignment: students who share their Submits' credit.

The rules, which ``docs/instructors/grading-desk.md#groups`` states for instructors:
- An assignment has groups when its ``group_size`` is set (N, at least 2): either the course's staff form them,
  or students do (``GroupFormation``), one creating a group and the others joining with its code.
- A student is in at most one group per assignment (a constraint), and a group never holds more than N: a join
  locks the group's row before counting its members, so two students taking the last place at once are
  served one after the other and the second is refused.
- Students may join, create or leave a group only while neither they nor the group have a Submit that counts
  on the assignment (an accepted or not, inside the author's own window): after that, their work is the
  group's, and only the instructor changes the group.
- Credit is read by the one rule (``grades.grade_assignment``): a student's credit on a problem is the best
  of every member's Submits, each weighed against that student's own window. A change of membership moves
  credit on the next page load, and the LMS is sent every score of the assignment again.
- Every change of membership, and of the assignment's group rule, is written to the course's audit log.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models.functions import Lower

from judge.courses.deadlines import credit_at
from judge.courses.grades import window_for
from judge.courses.models import (
    Assignment,
    GroupFormation,
    GroupMember,
    Membership,
    Role,
    StudentGroup,
)
from judge.courses.release import holds_for
from judge.courses.services import CourseError, announce_credit_rules, audit, normal_code
from judge.submissions.models import Kind, Submission

GROUPS = "groups"
MAX_GROUP_SIZE = 50


def describe(group: StudentGroup) -> str:
    names = sorted(GroupMember.objects.filter(group=group).values_list("user__username", flat=True))
    return f"group {group.code} ({', '.join(names) or 'empty'})"


def changed(assignment: Assignment, by, summary: str) -> None:
    """The audit row of a change, and the LMS told that every score of the assignment may differ."""
    audit(assignment.course, by, GROUPS, f"{assignment.title!r}: {summary}")
    announce_credit_rules(assignment.pk)


@transaction.atomic
def set_group_rule(assignment: Assignment, by, size: int | None, formed_by: str) -> None:
    """The instructor's choice: no groups (``size`` None), or groups of up to ``size`` formed by ``formed_by``."""
    errors = []
    if size is not None and not 2 <= size <= MAX_GROUP_SIZE:
        errors.append(f"A group has 2 to {MAX_GROUP_SIZE} members; leave the size blank for no groups.")
    if formed_by not in GroupFormation.values:
        errors.append("Choose who forms the groups: the course's staff, or students with a group code.")
    if size is not None:
        bigger = [describe(g) for g in StudentGroup.objects.filter(assignment=assignment) if g.members.count() > size]
        if bigger:
            errors.append(f"These groups have more than {size} members; remove some first: {'; '.join(bigger)}.")
    if errors:
        raise CourseError(errors)
    assignment.group_size, assignment.groups_formed_by = size, formed_by
    assignment.save(update_fields=["group_size", "groups_formed_by"])
    rule = (
        f"groups of up to {size}, formed by {'students' if formed_by == GroupFormation.STUDENTS else 'staff'}"
        if size
        else "no groups"
    )
    changed(assignment, by, rule)


def group_of(assignment: Assignment, user) -> StudentGroup | None:
    member = GroupMember.objects.filter(assignment=assignment, user=user).select_related("group").first()
    return member.group if member else None


def members_of(group: StudentGroup) -> list:
    return [m.user for m in GroupMember.objects.filter(group=group).select_related("user")]


def has_counting_submit(assignment: Assignment, users) -> bool:
    """Whether one of ``users`` made a Submit on the assignment's problems inside their own window (graded or
    not): from then on their work belongs to the group they are in."""
    timed = bool(assignment.time_limit_minutes)
    problems = list(assignment.items.values_list("problem_id", flat=True))
    for user in users:
        window = window_for(assignment, user)
        submits = Submission.objects.filter(user=user, problem_id__in=problems, kind=Kind.SUBMIT)
        if window.opens_at is not None:
            submits = submits.filter(created_at__gte=window.opens_at)
        if any(credit_at(window, at, timed).counts for at in submits.values_list("created_at", flat=True)):
            return True
    return False


def check_student_may_change(assignment: Assignment, student, group: StudentGroup | None = None) -> None:
    if not assignment.group_size:
        raise CourseError("This assignment has no groups: everyone works alone.")
    if assignment.groups_formed_by != GroupFormation.STUDENTS:
        raise CourseError("The course's staff form the groups of this assignment; ask them to change yours.")
    if not Membership.objects.filter(course_id=assignment.course_id, user=student, role=Role.STUDENT).exists():
        raise CourseError("Only the course's students join groups.")
    people = [student] + (members_of(group) if group else [])
    if has_counting_submit(assignment, people):
        raise CourseError(
            "Groups are fixed once a member has submitted on this assignment: ask the course's "
            "instructor to change yours."
        )


@transaction.atomic
def create_group(assignment: Assignment, student) -> StudentGroup:
    """A student starts a group; others join it with its code."""
    if group_of(assignment, student):
        raise CourseError("You are in a group on this assignment already: leave it first.")
    check_student_may_change(assignment, student)
    group = StudentGroup.objects.create(assignment=assignment, created_by=student)
    add_member(group, student)  # refused (and the group rolled back) if a second click made one meanwhile
    changed(assignment, student, f"{student.username} created group {group.code}")
    return group


@transaction.atomic
def join_group(assignment: Assignment, student, code: str) -> StudentGroup:
    """A student joins the group whose code they were given, while it has room."""
    if group_of(assignment, student):
        raise CourseError("You are in a group on this assignment already: leave it first.")
    # The group's row is locked before its members are counted: joins to one group are served one at a time.
    group = StudentGroup.objects.select_for_update().filter(assignment=assignment, code=normal_code(code)).first()
    if group is None:
        raise CourseError("No group of this assignment has that code. Check it for typos.")
    check_student_may_change(assignment, student, group)
    if assignment.group_size is not None and group.members.count() >= assignment.group_size:
        raise CourseError(f"This group is full: it has {assignment.group_size} members already.")
    add_member(group, student)
    changed(assignment, student, f"{student.username} joined {describe(group)}")
    return group


def add_member(group: StudentGroup, user) -> None:
    try:
        with transaction.atomic():
            GroupMember.objects.create(group=group, assignment_id=group.assignment_id, user=user)
    except IntegrityError:  # joined another group of the assignment in the meantime
        raise CourseError(f"{user.username} is in a group on this assignment already.") from None


@transaction.atomic
def leave_group(assignment: Assignment, student) -> None:
    group = group_of(assignment, student)
    if group is None:
        raise CourseError("You are not in a group on this assignment.")
    check_student_may_change(assignment, student, group)
    remove_member(group, student)
    changed(assignment, student, f"{student.username} left group {group.code}")


def remove_member(group: StudentGroup, user) -> None:
    GroupMember.objects.filter(group=group, user=user).delete()
    if not GroupMember.objects.filter(group=group).exists():
        group.delete()  # nobody left: its code joins nothing any more


# --- The instructor's side ------------------------------------------------------------------------------------


@transaction.atomic
def add_to_group(assignment: Assignment, by, usernames: list[str], group: StudentGroup | None = None) -> StudentGroup:
    """The instructor puts these students in ``group``, or in a new group; at any time, Submits or not."""
    if not assignment.group_size:
        raise CourseError("Turn groups on first: give the group size.")
    if group is not None:
        group = StudentGroup.objects.select_for_update().get(pk=group.pk, assignment=assignment)
    wanted = [name.strip() for name in usernames if name.strip()]
    students = {
        m.user.username.lower(): m.user
        for m in Membership.objects.annotate(name=Lower("user__username"))
        .filter(course_id=assignment.course_id, role=Role.STUDENT, name__in=[n.lower() for n in wanted])
        .select_related("user")
    }
    errors = [f"{name} is not a student of this course." for name in wanted if name.lower() not in students]
    taken = dict(
        GroupMember.objects.filter(assignment=assignment, user__in=list(students.values())).values_list(
            "user__username", "group__code"
        )
    )
    errors += [f"{name} is in group {code} already: remove them from it first." for name, code in taken.items()]
    size = (group.members.count() if group else 0) + len(students)
    if size > assignment.group_size:
        errors.append(f"That makes {size} members; a group of this assignment has at most {assignment.group_size}.")
    if not wanted:
        errors.append("Name at least one student.")
    if errors:
        raise CourseError(errors)
    group = group or StudentGroup.objects.create(assignment=assignment, created_by=by)
    for user in students.values():
        add_member(group, user)
    changed(
        assignment,
        by,
        f"{by.username} added {', '.join(sorted(u.username for u in students.values()))} to {describe(group)}",
    )
    return group


@transaction.atomic
def remove_from_group(assignment: Assignment, by, group: StudentGroup, user) -> None:
    """The instructor takes a student out of a group; the group's Submits stop counting for them."""
    if not GroupMember.objects.filter(group=group, user=user).exists():
        raise CourseError(f"{user.username} is not in group {group.code}.")
    remove_member(group, user)
    changed(assignment, by, f"{by.username} removed {user.username} from group {group.code}")


# --- What a member sees ----------------------------------------------------------------------------------------


@dataclass
class GroupView:
    group: StudentGroup | None
    members: list
    locked: bool
    full: bool


def group_view(assignment: Assignment, student) -> GroupView | None:
    """The student's group box on the assignment page, or None when the assignment has no groups."""
    if not assignment.group_size:
        return None
    group = group_of(assignment, student)
    members = members_of(group) if group else []
    locked = has_counting_submit(assignment, members or [student])
    return GroupView(group, members, locked, len(members) >= assignment.group_size)


def group_submits(assignment: Assignment, group: StudentGroup):
    """Every member's Submits on the assignment's problems, newest first, since it opened."""
    members = list(GroupMember.objects.filter(group=group).values_list("user_id", flat=True))
    submits = Submission.objects.filter(
        user_id__in=members, kind=Kind.SUBMIT, problem_id__in=assignment.items.values("problem_id")
    )
    if assignment.opens_at is not None:
        submits = submits.filter(created_at__gte=assignment.opens_at)
    return (
        submits.select_related("user", "problem")
        .order_by("-created_at", "-pk")
        .only(
            "id",
            "user__username",
            "problem__slug",
            "problem__title",
            "created_at",
            "status",
            "verdict",
            "kind",
            "user_id",
            "problem_id",
        )
    )


def mates_on_problem(user_id: int, problem_id: int) -> set[int]:
    """Everyone whose credit a Submit of this student on this problem may move: the student and the members of
    their groups on assignments holding the problem (for the LMS)."""
    groups = GroupMember.objects.filter(
        user_id=user_id, assignment__group_size__isnull=False, assignment__items__problem_id=problem_id
    ).values("group_id")
    return {user_id} | set(GroupMember.objects.filter(group_id__in=groups).values_list("user_id", flat=True))


def held_for_reader(reader, submissions) -> set[int]:
    """Of a group's Submits, those whose verdict is held from ``reader``: the reader's own hold on the problem
    (``courses.release``) covers their teammates' Submits as it covers their own."""
    submissions = list(submissions)
    holds = holds_for(reader, {s.problem_id for s in submissions}) if submissions else {}
    return {s.pk for s in submissions if any(h.covers(s) for h in holds.get(s.problem_id, []))}
