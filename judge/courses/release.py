"""When a student may see what grading found, per assignment: at once, after their own due time (extensions
included), or when the course's staff press Release.

Until an assignment is released for a student, every Submit they made on one of its problems since it opened
for them is *held*: every page, the API and the CLI say it was received and graded on the visible examples,
and when grades will be released; they show no verdict, no hidden test, no named mistake, no speed, no credit,
and the problem's editorial stays closed. The LMS is sent no score for it (``judge.lti.scores``). Staff and
site staff see everything as before: a hold concerns the student's own view of their own work.

A hold is read from the dates when it is asked for (``holds_for``), like credit: moving a due time or granting
an extension changes it on the next page load, with nothing to keep in step.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format

from engine.verdicts import Verdict
from judge.authoring.models import RejudgeBatch
from judge.authoring.services import rejudge_progress
from judge.courses.deadlines import Window
from judge.courses.grades import grade_assignment, students_of, window_for, windows_of
from judge.courses.models import (
    Assignment,
    AssignmentProblem,
    CreditBefore,
    Membership,
    Notice,
    Release,
    Role,
)
from judge.courses.services import CourseError, announce_credit_rules, audit
from judge.standings.models import UserProblemState
from judge.standings.ranking import marks_of
from judge.submissions.models import Kind, Status, Submission
from judge.submissions.queries import EditorialAccess, editorial_access

RELEASED = "released grades"


def released_for(assignment: Assignment, window: Window, now: datetime) -> bool:
    """Whether this student (``window``: their own dates) may see their grades on the assignment now."""
    if assignment.release == Release.MANUAL:
        return assignment.released_at is not None
    if assignment.release == Release.AFTER_DUE:
        return window.due_at is None or now >= window.due_at
    return True


@dataclass(frozen=True)
class Hold:
    """An assignment not yet released for a student, on one of its problems."""

    assignment_id: int
    course_id: int
    title: str
    since: datetime | None  # the student's opening: their Submits from then on are held
    until: datetime | None  # when it is released for them; None: when staff press Release

    def covers(self, submission: Submission) -> bool:
        return submission.kind == Kind.SUBMIT and (self.since is None or submission.created_at >= self.since)

    @property
    def when(self) -> str:
        """When grades come, as a sentence's end: "after the due time, 2 Mar 2026 18:00" (the viewer's zone)."""
        if self.until is None:
            return "when the course's staff release them"
        return f"after the due time, {date_format(timezone.localtime(self.until), 'DATETIME_FORMAT')}"

    @property
    def sentence(self) -> str:
        return (
            f"Grades for {self.title} are released {self.when}: until then you see that your Submit was "
            "received and how it did on the visible examples, but not its verdict, the hidden tests, "
            "your credit or the editorial."
        )


def holds_for(user, problem_ids=None, now: datetime | None = None) -> dict[int, list[Hold]]:
    """problem id -> the assignments holding this student's grades on it now (empty for anyone not a student)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    now = now or timezone.now()
    items = (
        AssignmentProblem.objects.filter(
            assignment__course__memberships__user=user, assignment__course__memberships__role=Role.STUDENT
        )
        .exclude(assignment__release=Release.AT_ONCE)
        .exclude(assignment__release=Release.MANUAL, assignment__released_at__isnull=False)
        .select_related("assignment")
    )
    if problem_ids is not None:
        items = items.filter(problem_id__in=list(problem_ids))
    holds: dict[int, list[Hold]] = defaultdict(list)
    windows: dict[int, Window] = {}
    for item in items:
        assignment = item.assignment
        if assignment.pk not in windows:
            windows[assignment.pk] = window_for(assignment, user)
        window = windows[assignment.pk]
        if released_for(assignment, window, now):
            continue
        until = window.due_at if assignment.release == Release.AFTER_DUE else None
        holds[item.problem_id].append(
            Hold(assignment.pk, assignment.course_id, assignment.title, window.opens_at, until)
        )
    return dict(holds)


def held_since(user, problem_ids) -> dict[int, datetime | None]:
    """``judge.submissions.withheld``'s rule: per held problem, the time the student's Submits on it are held
    from (None: every Submit), so that the floors below hide a held solve (unlocking, the public profile)."""
    since: dict[int, datetime | None] = {}
    for problem_id, held in holds_for(user, problem_ids).items():
        starts = [h.since for h in held if h.since is not None]
        since[problem_id] = min(starts) if len(starts) == len(held) else None
    return since


def held_solvers(now: datetime | None = None) -> dict[int, dict[int, datetime | None]]:
    """``judge.submissions.withheld``'s rule for the site-wide standings: student id -> ``held_since`` of each
    of their students' kept solves an assignment holds now. Only assignments that may still hold someone are
    read (unreleased by hand, or with a due time still to come for someone), and of them only the students with
    a solve of one of their problems: holds are rare, so the standings adjust a handful of rows, not the board."""
    now = now or timezone.now()
    future = Q(due_at__gt=now) | Q(closes_at__gt=now) | Q(overrides__due_at__gt=now) | Q(overrides__closes_at__gt=now)
    pending = Assignment.objects.filter(
        Q(release=Release.MANUAL, released_at__isnull=True) | (Q(release=Release.AFTER_DUE) & future)
    ).distinct()
    held: dict[int, dict[int, datetime | None]] = defaultdict(dict)
    for assignment in pending:
        problem_ids = AssignmentProblem.objects.filter(assignment=assignment).values("problem_id")
        solves = list(
            UserProblemState.objects.filter(
                first_accepted_at__isnull=False,
                problem_id__in=problem_ids,
                user_id__in=students_in(assignment.course_id),
            ).values_list("user_id", "problem_id")
        )
        if not solves:
            continue
        solvers = {user_id for user_id, _ in solves}
        windows = windows_of(assignment, [s for s in students_of(assignment.course) if s.user_id in solvers])
        for user_id, problem_id in solves:
            window = windows.get(user_id)
            if window is None or released_for(assignment, window, now):
                continue
            kept = held[user_id].get(problem_id, window.opens_at)
            since = window.opens_at
            held[user_id][problem_id] = None if since is None or kept is None else min(since, kept)
    return dict(held)


def students_in(course_id: int):
    return Membership.objects.filter(course_id=course_id, role=Role.STUDENT).values("user_id")


def hold_on(viewer, submission: Submission) -> Hold | None:
    """The hold that keeps this submission's grade from its own author, if ``viewer`` is that author."""
    if viewer.pk != submission.user_id or submission.kind != Kind.SUBMIT:
        return None
    return next(
        (h for h in holds_for(viewer, [submission.problem_id]).get(submission.problem_id, []) if h.covers(submission)),
        None,
    )


def editorial_hold(user, problem_id: int) -> Hold | None:
    """While one of the student's assignments holds the problem, its editorial stays closed to them."""
    return next(iter(holds_for(user, [problem_id]).get(problem_id, [])), None)


def held_submission_ids(user, submissions) -> set[int]:
    """Of ``submissions`` (their own), those whose grade is held from ``user``: one look-up for a whole list."""
    submissions = list(submissions)
    holds = holds_for(user, {s.problem_id for s in submissions}) if submissions else {}
    return {s.pk for s in submissions if s.user_id == user.pk and any(h.covers(s) for h in holds.get(s.problem_id, []))}


def marked_held(user, submissions) -> list[Submission]:
    """The user's attempts as a list, each held one marked (``held``), for a history table to hide its verdict."""
    submissions = list(submissions)
    withheld = held_submission_ids(user, submissions)
    for submission in submissions:
        submission.held = submission.pk in withheld
    return submissions


def masked_marks(user, solved: set[int], attempted: set[int]) -> tuple[set[int], set[int]]:
    """The problem list's marks without what a hold keeps back: a problem solved only by held Submits shows as
    attempted."""
    holds = holds_for(user, solved) if solved else {}
    if not holds:
        return solved, attempted
    hidden = set()
    for problem_id, held in holds.items():
        earliest = [h.since for h in held if h.since is not None]
        if len(earliest) < len(held):  # an assignment with no opening holds every Submit
            hidden.add(problem_id)
            continue
        before = Submission.objects.filter(
            user=user,
            problem_id=problem_id,
            kind=Kind.SUBMIT,
            verdict=Verdict.ACCEPTED,
            status=Status.DONE,
            created_at__lt=min(earliest),
        )
        if not before.exists():
            hidden.add(problem_id)
    return solved - hidden, attempted | hidden


def marks_for(user) -> tuple[set[int], set[int]]:
    """The problems this user solved and attempted, as the problem list and the API mark them: the standings'
    marks less what a hold keeps back."""
    solved, attempted = marks_of(user)
    return masked_marks(user, solved, attempted) if getattr(user, "is_authenticated", False) else (solved, attempted)


def editorial_for(user, problem) -> EditorialAccess:
    """``editorial_access``, and closed while one of the student's assignments holds the problem's grades."""
    access = editorial_access(user, problem)
    if not problem.editorial_md.strip():
        return access
    hold = editorial_hold(user, problem.pk)
    if hold is None:
        return access
    return EditorialAccess(False, f"The editorial opens when your grades for {hold.title} are released ({hold.when}).")


@transaction.atomic
def release_assignment(assignment: Assignment, by) -> bool:
    """Staff press Release: every student sees their grades, and the LMS is sent every score (once: a second
    press changes nothing). False if it was released already."""
    if assignment.release != Release.MANUAL:
        raise CourseError("This assignment releases grades by itself; change its release setting to release by hand.")
    if Assignment.objects.filter(pk=assignment.pk, released_at__isnull=True).update(released_at=timezone.now()) != 1:
        return False
    assignment.refresh_from_db()
    audit(assignment.course, by, RELEASED, f"released the grades of {assignment.title!r}")
    announce_credit_rules(assignment.pk)
    return True


def release_note(assignment: Assignment, window: Window, now: datetime) -> str:
    """For a student's assignment page: when their grades are released, or "" once they are."""
    if released_for(assignment, window, now):
        return ""
    until = window.due_at if assignment.release == Release.AFTER_DUE else None
    return Hold(assignment.pk, assignment.course_id, assignment.title, window.opens_at, until).sentence


# --- A rejudge after release: the students whose credit moved are told -----------------------------------------


def remember_credit_before_rejudge(batch_id: int, problem_ids: list[int], user_ids: list[int]) -> int:
    """Called as a rejudge is requested (``judge.authoring.signals.rejudge_requested``): each affected student's
    credit on every released assignment holding a rejudged problem, to compare with once the rejudge is done."""
    now = timezone.now()
    rows = []
    assignments = Assignment.objects.filter(items__problem_id__in=problem_ids).distinct()
    for assignment in assignments:
        students = [s for s in students_of(assignment.course) if s.user_id in set(user_ids)]
        if not students:
            continue
        grades = grade_assignment(assignment, students)
        for student in students:
            if not released_for(assignment, grades.windows[student.user_id], now):
                continue  # nothing was shown to them yet, so nothing moved for them
            rows += [
                CreditBefore(
                    batch_id=batch_id,
                    assignment=assignment,
                    user_id=student.user_id,
                    problem_id=pid,
                    value=grades.credit(student.user_id, pid).value,
                )
                for pid, _, _ in grades.problems
                if pid in problem_ids
            ]
    CreditBefore.objects.bulk_create(rows)
    return len(rows)


def notify_moved_credit(batch_id: int) -> int:
    """Once a rejudge has finished: a notice on their course page for each student whose credit on a problem
    differs from before it. Each remembered credit is compared and forgotten once (rows locked and deleted in
    one transaction), so a notice is never sent twice."""
    with transaction.atomic():
        before = list(
            CreditBefore.objects.select_for_update().filter(batch_id=batch_id).select_related("assignment", "problem")
        )
        CreditBefore.objects.filter(pk__in=[b.pk for b in before]).delete()
        by_assignment: dict[int, list[CreditBefore]] = defaultdict(list)
        for row in before:
            by_assignment[row.assignment_id].append(row)
        told = 0
        for rows in by_assignment.values():
            assignment = rows[0].assignment
            students = [s for s in students_of(assignment.course) if s.user_id in {r.user_id for r in rows}]
            grades = grade_assignment(assignment, students)
            for row in rows:
                now_value = grades.credit(row.user_id, row.problem_id).value if row.user_id in grades.windows else 0
                if abs(now_value - row.value) > 1e-9:
                    Notice.objects.create(
                        course_id=assignment.course_id,
                        user_id=row.user_id,
                        link=f"/courses/{assignment.course_id}/assignments/{assignment.pk}/",
                        text=f"{row.problem.title} in {assignment.title} was graded again: your credit went from "
                        f"{row.value:g} to {now_value:g}.",
                    )
                    told += 1
    return told


def notify_finished_rejudges() -> int:
    """The sweep (every minute): for each rejudge with credit remembered that has finished, tell the students."""
    told = 0
    batches = RejudgeBatch.objects.filter(pk__in=CreditBefore.objects.values("batch_id"))
    for batch in batches:
        if rejudge_progress(batch)["finished"]:
            told += notify_moved_credit(batch.pk)
    return told


def unread_notices(user, course) -> list[Notice]:
    return list(Notice.objects.filter(user=user, course=course, read_at__isnull=True))


def mark_notices_read(user, course) -> None:
    Notice.objects.filter(user=user, course=course, read_at__isnull=True).update(read_at=timezone.now())


def windows_for_users(assignment: Assignment, user_ids: list[int]) -> dict[int, Window]:
    """Each of these students' own window (for the LMS's release sweep)."""
    return windows_of(assignment, [s for s in students_of(assignment.course) if s.user_id in set(user_ids)])
