"""One assignment's submissions as a zip, for the course's staff: per student and problem the Submit that counts
(or every Submit inside the student's window), with ``manifest.csv`` first.

The manifest's credit is the one rule's (``grades.grade_assignment``: credit by date, rubric items, points by
hand, the cap), so it agrees with the gradebook to the digit; it has a row for every student and problem, a
Submit or not. The Submit that counts is the one the credit was chosen from: the accepted Submit inside the
student's own window worth the most (the earliest of equals); when none was accepted, their last Submit inside
the window, which earned nothing; none when they made no Submit inside it.

The zip is made as it is sent (``judge.lib.zipstream``): the Submits are chosen without their code (PostgreSQL
picks the one that counts per student and problem; every Submit is one ordered read of dates and verdicts), the
manifest goes out, then the code: the chosen Submits' a batch at a time, or, for every Submit, one ordered read
through a cursor. What stays in memory is the manifest's rows and a record per file for the zip's directory.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Case, F, Q, When
from django.utils import timezone
from django.utils.text import slugify

from engine.verdicts import Verdict
from judge.courses.deadlines import Credit, credit_at
from judge.courses.export import as_text, points
from judge.courses.grades import AssignmentGrades, Student, course_submits, grade_assignment, students_of
from judge.courses.models import Assignment, AssignmentProblem
from judge.exports.history import Export
from judge.lib.zipstream import ZipStream
from judge.submissions.models import Kind, Status, Submission

BATCH = 500  # submissions whose code one query reads (SQLite takes at most 32,766 parameters a query)
COLUMNS = ["student", "section", "problem", "submission", "time", "verdict", "credit", "counts", "file"]
README = """# {title}

`manifest.csv` has one row per student and problem: the Submit that counts (or, in a download of every Submit,
one row per Submit made inside the student's own window), its time (UTC), its verdict, and the student's credit
on the problem as the gradebook shows it (credit by date, rubric items and points by hand). `file` is where its
code is in this folder; a row without a submission is a problem the student made no Submit on inside their
window.
"""


@dataclass(slots=True)  # a row per Submit: 88,000 of them for every Submit of 1,000 students x 30 problems
class Row:
    student: Student
    slug: str
    submission_id: int | None = None
    at: datetime | None = None
    verdict: str = ""
    counts: bool = False
    credit: Credit | None = None  # on the row of the Submit that counts (or of a problem without one)
    path: str = ""  # where its code is in the zip

    def cells(self) -> list[str]:
        when = self.at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if self.at else ""
        return [
            self.student.username,
            as_text(self.student.section),
            self.slug,
            str(self.submission_id or ""),
            when,
            self.verdict,
            "" if self.credit is None else points(self.credit.value),
            "yes" if self.counts else "no",
            self.path,
        ]


def download(assignment: Assignment, every: bool = False, now: datetime | None = None) -> Export:
    now = now or timezone.now()
    folder = f"{slugify(assignment.course.title)[:40] or 'course'}-{slugify(assignment.title)[:40] or 'assignment'}"
    name = f"{folder}-{'every-submit' if every else 'counted'}-{now:%Y%m%d}"
    return Export(f"{name}.zip", _chunks(assignment, every, name, now))


def student_folders(students: list[Student]) -> dict[int, str]:
    """A folder per student named after them, safe to unzip anywhere: a character a username should not hold
    becomes "_", and a name that would clash on a case-blind disk, or is only dots ("..": a way out of the
    folder), gets the student's id too."""
    safe = {s.user_id: re.sub(r"[^\w.@+-]", "_", s.username) for s in students}
    taken = Counter(name.lower() for name in safe.values())
    return {
        user_id: name if taken[name.lower()] == 1 and name.strip(".") else f"{name.strip('.') or 'student'}-{user_id}"
        for user_id, name in safe.items()
    }


def choose(assignment: Assignment, students: list[Student], every: bool) -> list[Row]:
    """The manifest's rows, in order: by student, then by problem as the assignment lists them."""
    grades = grade_assignment(assignment, students)
    folders = student_folders(students)
    timed = bool(assignment.time_limit_minutes)
    problems = [(pid, slug) for pid, slug, _ in grades.problems]
    if not every and not timed and connection.vendor == "postgresql":
        inside = counted_by_the_database(assignment, grades, students)
    else:
        inside = submits_inside(assignment, grades, students)
    rows = []
    for student in students:
        folder = folders[student.user_id]
        for pid, slug in problems:
            made = inside.get((student.user_id, pid), [])
            counted = counted_submit(made)
            credit = grades.credit(student.user_id, pid)
            if every and made:
                rows += [
                    Row(
                        student,
                        slug,
                        pk,
                        at,
                        verdict,
                        pk == counted,
                        credit if pk == counted else None,
                        f"{folder}/{slug}/{pk}.py",
                    )
                    for pk, at, verdict, _ in made
                ]
            elif counted is not None:
                _, at, verdict, _ = next(m for m in made if m[0] == counted)
                rows.append(Row(student, slug, counted, at, verdict, True, credit, f"{folder}/{slug}.py"))
            else:
                rows.append(Row(student, slug, credit=credit))
    return rows


Rank = tuple[float, bool]  # what a Submit inside the window is worth: (credit by date, on time)
Made = dict[tuple[int, int], list[tuple[int, datetime, str, Rank]]]  # (student, problem) -> Submits, oldest first


def submits_inside(assignment: Assignment, grades: AssignmentGrades, students: list[Student]) -> Made:
    """Every Submit inside each student's window: one ordered read of their dates and verdicts, no code."""
    timed = bool(assignment.time_limit_minutes)
    shown = {s.user_id for s in students}
    submits = (
        course_submits(assignment.course, [pid for pid, _, _ in grades.problems])
        .order_by("user_id", "problem_id", "created_at", "pk")
        .values_list("pk", "user_id", "problem_id", "created_at", "status", "verdict")
    )
    inside: Made = {}
    for pk, user_id, problem_id, at, status, verdict in submits.iterator(chunk_size=5000):
        if user_id not in shown:
            continue
        worth = credit_at(grades.windows[user_id], at, timed)
        if worth.counts:
            shown_as = verdict if status == Status.DONE else status  # "queued", "running": not graded yet
            inside.setdefault((user_id, problem_id), []).append((pk, at, shown_as, (worth.value, not worth.late)))
    return inside


def counted_by_the_database(assignment: Assignment, grades: AssignmentGrades, students: list[Student]) -> Made:
    """Only the Submit that counts per student and problem, chosen by PostgreSQL (``DISTINCT ON``) for each group
    of students sharing a window: the first accepted inside it (credit never rises with time once a window is
    open, so it is worth the most), else the last. A quarter of the rows ``submits_inside`` reads for a class."""
    groups: dict[tuple[datetime | None, datetime | None], list[int]] = {}
    for student in students:
        window = grades.windows[student.user_id]
        groups.setdefault((window.opens_at, window.last_moment), []).append(student.user_id)
    accepted = Q(status=Status.DONE, verdict=Verdict.ACCEPTED)
    inside: Made = {}
    for (opens_at, last), user_ids in groups.items():
        submits = course_submits(assignment.course, [pid for pid, _, _ in grades.problems]).filter(user_id__in=user_ids)
        if opens_at is not None:
            submits = submits.filter(created_at__gte=opens_at)
        if last is not None:
            submits = submits.filter(created_at__lte=last)
        first_accepted = (
            Case(When(accepted, then=F("created_at"))).asc(nulls_last=True),
            Case(When(accepted, then=F("pk"))).asc(nulls_last=True),
        )
        chosen = (
            submits.order_by("user_id", "problem_id", *first_accepted, "-created_at", "-pk")
            .distinct("user_id", "problem_id")
            .values_list("pk", "user_id", "problem_id", "created_at", "status", "verdict")
        )
        for pk, user_id, problem_id, at, status, verdict in chosen:
            shown_as = verdict if status == Status.DONE else status
            worth = credit_at(grades.windows[user_id], at)
            inside[(user_id, problem_id)] = [(pk, at, shown_as, (worth.value, not worth.late))]
    return inside


def counted_submit(made: list[tuple[int, datetime, str, Rank]]) -> int | None:
    """Of a student's Submits on a problem inside their window (oldest first): the accepted one worth the most,
    the earliest of equals, as ``grade_assignment`` chooses; else the last one; None without any."""
    best: Rank | None = None
    chosen = None
    for pk, _, verdict, rank in made:
        if verdict == Verdict.ACCEPTED and (best is None or rank > best):
            best, chosen = rank, pk
    if chosen is None and made:
        chosen = made[-1][0]
    return chosen


def manifest(rows: list[Row]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    writer.writerows(row.cells() for row in rows)
    return out.getvalue().encode()


def _chunks(assignment: Assignment, every: bool, folder: str, now: datetime) -> Iterator[bytes]:
    rows = choose(assignment, students_of(assignment.course), every)
    archive = ZipStream(folder)
    archive.add("README.md", README.format(title=assignment.title).encode(), now)
    archive.add("manifest.csv", manifest(rows), now)
    yield archive.ready()
    for row, code in (every_code if every else chosen_code)(assignment, rows):
        if row.at is not None:
            archive.add(row.path, code.encode("utf-8", "surrogateescape"), row.at)
        if chunk := archive.ready():  # once 64 KB are waiting
            yield chunk
    rows.clear()  # before the zip's directory is written, its largest piece of memory
    yield archive.close()


def chosen_code(assignment: Assignment, rows: list[Row]) -> Iterator[tuple[Row, str]]:
    """The code of the rows' Submits, a batch at a time, in the manifest's order (one Submit of several)."""
    with_code = [row for row in rows if row.submission_id is not None]
    for start in range(0, len(with_code), BATCH):
        batch = with_code[start : start + BATCH]
        codes = dict(
            Submission.objects.filter(pk__in=[r.submission_id for r in batch], kind=Kind.SUBMIT).values_list(
                "pk", "code"
            )
        )
        yield from ((row, codes[row.submission_id]) for row in batch if row.submission_id in codes)


def every_code(assignment: Assignment, rows: list[Row]) -> Iterator[tuple[Row, str]]:
    """The code of nearly every Submit of the course's students on the assignment's problems: one ordered read
    through a cursor, keeping the rows' (a few lists of ids would read it all the same, in 200 queries)."""
    wanted = {row.submission_id: row for row in rows if row.submission_id is not None}
    problem_ids = list(AssignmentProblem.objects.filter(assignment=assignment).values_list("problem_id", flat=True))
    codes = (
        course_submits(assignment.course, problem_ids)
        .order_by("user_id", "problem_id", "created_at", "pk")
        .values_list("pk", "code")
    )
    for pk, code in codes.iterator(chunk_size=BATCH):
        if pk in wanted:
            yield wanted[pk], code
