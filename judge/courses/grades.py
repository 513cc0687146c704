"""Credit, read from the submissions when it is asked for: nothing is written when a verdict is recorded.

The one rule every reader of grades goes through (the gradebook and its CSV, ``manage.py gradebook``, the course
pages, the score sent to an LMS): ``grade_assignment`` takes the automatic credit by date, adds the rubric items
staff ticked (``RubricMark``), then applies the points staff gave by hand (``Adjustment``: an override of the
credit, or a bonus or deduction added to it), and keeps the result between 0 and the assignment's
``problem_cap``. When students may see it is a separate question (``courses.release``).

The Submit that counts for an assignment problem is the best one made inside the student's own window (their
dates after overrides); a Submit is worth its date's credit (``deadlines.credit_at``) if accepted, nothing
otherwise. On an assignment with groups (``courses.groups``), a student's Submits are those of every member of
their group, each still weighed against the student's own window: a member's extension is theirs alone.
Reading it from the submissions means a rejudge, an override or a changed due time is reflected on the next page
load, with no second copy of the verdicts to keep in step, and recording a verdict costs what it did. The queries reach a course's Submits through the (user, problem, kind) index.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Max, Min, Q

from engine.verdicts import Verdict
from judge.courses.deadlines import NOT_COUNTING, Credit, Window, credit_at, personal_window
from judge.courses.models import (
    Adjustment,
    AdjustmentKind,
    Assignment,
    AssignmentProblem,
    Course,
    GroupMember,
    Membership,
    Override,
    Role,
    RubricItem,
    RubricMark,
    TimedStart,
)
from judge.submissions.models import Kind, Status, Submission


@dataclass
class Student:
    user_id: int
    username: str
    email: str
    section_id: int | None
    section: str


def students_of(course: Course, section_id: int | None = None, user_id: int | None = None) -> list[Student]:
    members = Membership.objects.filter(course=course, role=Role.STUDENT)
    if section_id:
        members = members.filter(section_id=section_id)
    if user_id:
        members = members.filter(user_id=user_id)
    rows = members.order_by("user__username").values_list(
        "user_id", "user__username", "user__email", "section_id", "section__name"
    )
    return [Student(u, name, email or "", s, sname or "") for u, name, email, s, sname in rows]


def windows_of(assignment: Assignment, students: list[Student]) -> dict[int, Window]:
    """Each student's own window for this assignment."""
    overrides = list(Override.objects.filter(assignment=assignment))
    by_user = {o.user_id: o for o in overrides if o.user_id}
    by_section = {o.section_id: o for o in overrides if o.section_id}
    starts = dict(TimedStart.objects.filter(assignment=assignment).values_list("user_id", "started_at"))
    return {
        s.user_id: personal_window(
            assignment,
            by_section.get(s.section_id) if s.section_id else None,
            by_user.get(s.user_id),
            starts.get(s.user_id),
        )
        for s in students
    }


def window_for(assignment: Assignment, user) -> Window:
    member = Membership.objects.filter(course_id=assignment.course_id, user=user).first()
    student = Student(user.pk, user.username, "", member.section_id if member else None, "")
    return windows_of(assignment, [student])[user.pk]


def accepted_between(
    problem_ids: list[int], since: datetime | None, until: datetime | None, user_ids: list[int]
) -> list[tuple[int, int, datetime]]:
    submits = Submission.objects.filter(
        problem_id__in=problem_ids, kind=Kind.SUBMIT, status=Status.DONE, verdict=Verdict.ACCEPTED, user_id__in=user_ids
    )
    if since is not None:
        submits = submits.filter(created_at__gte=since)
    if until is not None:
        submits = submits.filter(created_at__lte=until)
    return list(submits.order_by().values_list("user_id", "problem_id", "created_at"))


@dataclass
class AssignmentGrades:
    assignment: Assignment
    problems: list[tuple[int, str, str]]  # (id, slug, title), in order
    windows: dict[int, Window]
    cells: dict[tuple[int, int], Credit] = field(default_factory=dict)

    def credit(self, user_id: int, problem_id: int) -> Credit:
        return self.cells.get((user_id, problem_id), NOT_COUNTING)

    def total(self, user_id: int) -> float:
        """Points: one per problem, times its credit."""
        return sum(self.credit(user_id, pid).value for pid, _, _ in self.problems)

    def fraction(self, user_id: int) -> float:
        return self.total(user_id) / len(self.problems) if self.problems else 0.0


def bounds(windows: list[Window]) -> tuple[datetime | None, datetime | None]:
    """The earliest opening and the latest moment that counts, over every student's window (None: unbounded)."""
    opens = [w.opens_at for w in windows if w.opens_at is not None]
    lasts = [w.last_moment for w in windows if w.last_moment is not None]
    return (
        min(opens) if opens and len(opens) == len(windows) else None,
        max(lasts) if lasts and len(lasts) == len(windows) else None,
    )


def grade_assignment(assignment: Assignment, students: list[Student]) -> AssignmentGrades:
    problems = list(
        AssignmentProblem.objects.filter(assignment=assignment).values_list(
            "problem_id", "problem__slug", "problem__title"
        )
    )
    windows = windows_of(assignment, students)
    grades = AssignmentGrades(assignment, problems, windows)
    timed = bool(assignment.time_limit_minutes)
    mates = group_mates(assignment, list(windows))
    for user_id, problem_id, at in accepted_in_windows([p[0] for p in problems], windows, timed, mates):
        credit = credit_at(windows[user_id], at, timed)
        best = grades.cells.get((user_id, problem_id))
        if credit.counts and (best is None or (credit.value, not credit.late) > (best.value, not best.late)):
            grades.cells[(user_id, problem_id)] = credit
    marks = rubric_points(assignment, windows)
    # Plain tuples, not model rows: a gradebook's CSV reads thousands of them.
    adjustments = some_students(Adjustment.objects.filter(assignment=assignment), windows)
    by_hand = {
        (user_id, problem_id): (kind, points)
        for user_id, problem_id, kind, points in adjustments.order_by().values_list(
            "user_id", "problem_id", "kind", "points"
        )
        if user_id in windows
    }
    for key in marks.keys() | by_hand.keys():
        grades.cells[key] = with_points_by_hand(
            grades.cells.get(key, NOT_COUNTING), marks.get(key, 0.0), by_hand.get(key), assignment.problem_cap
        )
    return grades


FEW_STUDENTS = 200


def some_students(rows, user_ids):
    """``rows`` of these students: filtered in SQL for a page of them; for a whole course the caller keeps its own
    from all the assignment's rows, which PostgreSQL reads 2-5 times faster than through a list of 1,000 ids."""
    return rows.filter(user_id__in=list(user_ids)) if len(user_ids) <= FEW_STUDENTS else rows


def rubric_points(assignment: Assignment, user_ids) -> dict[tuple[int, int], float]:
    """(student, problem) -> the points of the rubric items ticked for them."""
    items = {
        pk: (problem_id, points)
        for pk, problem_id, points in RubricItem.objects.filter(assignment=assignment).values_list(
            "pk", "problem_id", "points"
        )
    }
    if not items:
        return {}
    found: dict[tuple[int, int], float] = defaultdict(float)
    marks = some_students(RubricMark.objects.filter(item_id__in=list(items)), user_ids)
    for user_id, item_id in marks.order_by().values_list("user_id", "item_id"):
        if user_id in user_ids:
            problem_id, points = items[item_id]
            found[(user_id, problem_id)] += points
    return found


def with_points_by_hand(credit: Credit, rubric: float, adjustment: tuple[str, float] | None, cap: float) -> Credit:
    """The one rule's hand-given part: the automatic credit plus the ticked rubric items, then the adjustment
    (``(kind, points)``: an override sets the points, a bonus or deduction moves them), kept within [0, cap]."""
    value = credit.value + rubric
    if adjustment is not None:
        kind, points = adjustment
        value = points if kind == AdjustmentKind.OVERRIDE else value + points
    value = min(max(value, 0.0), cap)
    return Credit(value, counts=credit.counts or value > 0, late=credit.late, adjusted=True)


def group_mates(assignment: Assignment, user_ids: list[int]) -> dict[int, set[int]]:
    """Student -> the students whose Submits count for them: their group's members still students of the
    course, themselves included; empty when the assignment has no groups (each student counts their own)."""
    if not assignment.group_size or not user_ids:
        return {}
    members = GroupMember.objects.filter(
        assignment=assignment,
        user__course_memberships__course=assignment.course_id,
        user__course_memberships__role=Role.STUDENT,
    )
    ids = set(user_ids)
    in_groups = {u: g for u, g in some_students(members, ids).values_list("user_id", "group_id") if u in ids}
    by_group: dict[int, set[int]] = defaultdict(set)
    for user_id, group_id in members.filter(group_id__in=set(in_groups.values())).values_list("user_id", "group_id"):
        by_group[group_id].add(user_id)
    return {u: by_group[g] | {u} for u, g in in_groups.items()}


def accepted_in_windows(
    problem_ids: list[int], windows: dict[int, Window], timed: bool, mates: dict[int, set[int]] | None = None
) -> list[tuple[int, int, datetime]]:
    """The accepted Submits that may count, as (student credited, problem, time): a student's own, and those of
    their group's members (``mates``). Credit never rises with time once a window is open, so for students who
    share an opening time only the first accepted Submit after it of each author matters: one aggregate per
    opening time. A timed assignment gives each student their own opening; its few Submits are read one by one."""
    mates = mates or {}
    if timed or not windows:
        since, until = bounds(list(windows.values()))
        authors = set(windows).union(*mates.values())
        return credited(accepted_between(problem_ids, since, until, list(authors)), list(windows), mates)
    groups: dict[datetime | None, list[int]] = defaultdict(list)
    for user_id, window in windows.items():
        groups[window.opens_at].append(user_id)
    rows = []
    for opens_at, user_ids in groups.items():
        _, until = bounds([windows[u] for u in user_ids])
        authors = set(user_ids).union(*(mates.get(u, set()) for u in user_ids))
        submits = Submission.objects.filter(
            problem_id__in=problem_ids,
            kind=Kind.SUBMIT,
            status=Status.DONE,
            verdict=Verdict.ACCEPTED,
            user_id__in=list(authors),
        )
        if opens_at is not None:
            submits = submits.filter(created_at__gte=opens_at)
        if until is not None:
            submits = submits.filter(created_at__lte=until)
        firsts = submits.order_by().values_list("user_id", "problem_id").annotate(first=Min("created_at"))
        rows += earliest(credited(list(firsts), user_ids, mates)) if mates else list(firsts)
    return rows


def earliest(rows: list[tuple[int, int, datetime]]) -> list[tuple[int, int, datetime]]:
    """The first of each (student, problem): after a shared opening, an earlier Submit is never worth less."""
    first: dict[tuple[int, int], datetime] = {}
    for user_id, problem_id, at in rows:
        if (user_id, problem_id) not in first or at < first[(user_id, problem_id)]:
            first[(user_id, problem_id)] = at
    return [(user_id, problem_id, at) for (user_id, problem_id), at in first.items()]


def credited(rows, user_ids: list[int], mates: dict[int, set[int]]) -> list[tuple[int, int, datetime]]:
    """Each Submit (author, problem, time) as it counts for each of ``user_ids``: the author's, and their
    group's members'."""
    if not mates:
        wanted = set(user_ids)
        return [row for row in rows if row[0] in wanted]
    counts_for: dict[int, list[int]] = defaultdict(list)
    for user_id in user_ids:
        for author in mates.get(user_id, {user_id}):
            counts_for[author].append(user_id)
    return [(user_id, problem_id, at) for author, problem_id, at in rows for user_id in counts_for.get(author, [])]


@dataclass
class Gradebook:
    course: Course
    students: list[Student]
    assignments: list[AssignmentGrades]

    def course_total(self, user_id: int) -> float:
        """The weighted mean of assignment fractions, 0..1."""
        weights = [(g.assignment.weight, g.fraction(user_id)) for g in self.assignments if g.assignment.weight > 0]
        total = sum(w for w, _ in weights)
        return sum(w * f for w, f in weights) / total if total else 0.0


def gradebook(course: Course, section_id: int | None = None, students: list[Student] | None = None) -> Gradebook:
    """Every student's grades, or only those of ``students`` (a page of the gradebook)."""
    students = students_of(course, section_id) if students is None else students
    return Gradebook(
        course, students, [grade_assignment(a, students) for a in Assignment.objects.filter(course=course)]
    )


# --- The live matrix ---------------------------------------------------------------------------------------


def course_submits(course: Course, problem_ids):
    """The Submits of the course's students on these problems, reached through their memberships (a join, not a
    list of a thousand ids); the caller keeps the students it shows."""
    return Submission.objects.filter(
        problem_id__in=problem_ids,
        kind=Kind.SUBMIT,
        user__course_memberships__course=course,
        user__course_memberships__role=Role.STUDENT,
    )


@dataclass
class Progress:
    attempts: int = 0
    first_solved: datetime | None = None
    last_attempt: datetime | None = None
    credit: Credit = NOT_COUNTING

    @property
    def state(self) -> str:
        return "solved" if self.first_solved else "attempted" if self.attempts else "not-started"


def progress_matrix(
    assignment: Assignment, students: list[Student]
) -> tuple[AssignmentGrades, dict[tuple[int, int], Progress]]:
    """Per (student, problem): Submits since the assignment opened for them, the first accepted, the credit."""
    grades = grade_assignment(assignment, students)
    since, _ = bounds(list(grades.windows.values()))
    submits = course_submits(assignment.course, [p[0] for p in grades.problems])
    if since is not None:
        submits = submits.filter(created_at__gte=since)
    rows = (
        submits.order_by()
        .values("user_id", "problem_id")
        .annotate(
            attempts=Count("id"),
            last=Max("created_at"),
            solved=Min("created_at", filter=Q(status=Status.DONE, verdict=Verdict.ACCEPTED)),
        )
    )
    cells = defaultdict(Progress)
    shown = {s.user_id for s in students}
    for row in rows:
        if row["user_id"] not in shown:
            continue
        cells[(row["user_id"], row["problem_id"])] = Progress(
            row["attempts"], row["solved"], row["last"], grades.credit(row["user_id"], row["problem_id"])
        )
    return grades, cells


def stuck_students(
    assignment: Assignment, students: list[Student], since: datetime, min_wrong: int = 3
) -> list[tuple[str, str, int]]:
    """(username, problem slug, wrong Submits) for students with ``min_wrong`` or more wrong Submits on a problem
    since ``since`` and no accepted one on it ever."""
    problems = dict(AssignmentProblem.objects.filter(assignment=assignment).values_list("problem_id", "problem__slug"))
    names = {s.user_id: s.username for s in students}
    solved = set(
        course_submits(assignment.course, problems)
        .filter(verdict=Verdict.ACCEPTED)
        .values_list("user_id", "problem_id")
    )
    wrong = (
        course_submits(assignment.course, problems)
        .filter(status=Status.DONE, created_at__gte=since)
        .exclude(verdict=Verdict.ACCEPTED)
        .order_by()
        .values("user_id", "problem_id")
        .annotate(n=Count("id"))
        .filter(n__gte=min_wrong)
    )
    rows = [
        (names[r["user_id"]], problems[r["problem_id"]], r["n"])
        for r in wrong
        if r["user_id"] in names and (r["user_id"], r["problem_id"]) not in solved
    ]
    return sorted(rows, key=lambda row: (-row[2], row[0]))
