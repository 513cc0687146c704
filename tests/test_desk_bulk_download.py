"""The bulk download: one assignment's submissions as a zip, streamed, with a CSV manifest. Per student and
problem the Submit that counts (or every Submit inside the student's window), its code in the student's folder,
and the credit the gradebook shows; for the course's instructor and TA only, and written to the audit log."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses import desk, services
from judge.courses.bulk import student_folders
from judge.courses.export import rows as gradebook_rows
from judge.courses.grades import Student, gradebook
from judge.courses.models import AdjustmentKind, CourseAudit, TimedStart
from judge.submissions.models import Submission
from tests.boards import recorded
from tests.courses import DUE, world  # noqa: F401 (fixture)

PERSONAS = ("instructor", "ta", "student", "second", "stranger", "other_instructor", "site_staff")


def made(user, problem, verdict: str, at, code: str) -> Submission:
    submission = recorded(user, problem, verdict, at=at)
    Submission.objects.filter(pk=submission.pk).update(code=code)
    return submission


@pytest.fixture
def term(world):
    first, second = world.problems
    w = world
    w.early = made(w.student, first, Verdict.WRONG_ANSWER, DUE - timedelta(days=3), "def f(x):\n    return 0\n")
    w.right = made(w.student, first, Verdict.ACCEPTED, DUE - timedelta(days=2), "def f(x):\n    return x\n")
    w.again = made(w.student, first, Verdict.ACCEPTED, DUE - timedelta(days=1), "def f(x):\n    return +x\n")
    w.late = made(w.student, second, Verdict.ACCEPTED, DUE + timedelta(hours=5), "def g(x):\n    return x\n")
    w.after = made(w.student, second, Verdict.ACCEPTED, DUE + timedelta(days=9), "def g(x):\n    return -x\n")
    w.wrong = made(w.second, first, Verdict.WRONG_ANSWER, DUE - timedelta(days=1), "def f(x):\n    return 1\n")
    desk.adjust_points(w.assignment, w.instructor, w.second, second, AdjustmentKind.OVERRIDE, 0.75, "oral exam")
    w.site_staff = get_user_model().objects.get(username="staffer")
    return w


def download(client, w, every: bool = False):
    url = reverse("assignment-download", args=[w.course.pk, w.assignment.pk]) + ("?every=1" if every else "")
    return client.get(url)


def opened(response) -> zipfile.ZipFile:
    assert response.streaming and response["Content-Type"] == "application/zip"
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def manifest(archive: zipfile.ZipFile) -> list[dict]:
    name = next(n for n in archive.namelist() if n.endswith("/manifest.csv"))
    return list(csv.DictReader(io.StringIO(archive.read(name).decode())))


def test_only_the_courses_instructor_and_ta_download(client, term):
    seen = {}
    for persona in PERSONAS:
        client.force_login(getattr(term, persona))
        seen[persona] = download(client, term).status_code
    assert seen == {
        "instructor": 200,
        "ta": 200,
        "student": 403,
        "second": 403,
        "stranger": 404,
        "other_instructor": 404,
        "site_staff": 404,
    }


def test_each_student_and_problem_has_the_submit_that_counts(client, term):
    client.force_login(term.ta)
    archive = opened(download(client, term))
    rows = manifest(archive)
    assert [(r["student"], r["problem"], r["submission"], r["verdict"], r["credit"], r["counts"]) for r in rows] == [
        ("ada", "first_step", str(term.right.pk), "accepted", "1", "yes"),
        ("ada", "second_step", str(term.late.pk), "accepted", "0.5", "yes"),
        ("grace", "first_step", str(term.wrong.pk), "wrong_answer", "0", "yes"),
        ("grace", "second_step", "", "", "0.75", "no"),
    ]
    assert rows[0]["section"] == "Lab A" and rows[0]["time"] == (DUE - timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    folder = archive.namelist()[0].split("/")[0]
    assert archive.read(f"{folder}/{rows[0]['file']}").decode() == "def f(x):\n    return x\n"
    assert archive.read(f"{folder}/ada/second_step.py").decode() == "def g(x):\n    return x\n"
    assert sorted(n.split("/", 1)[1] for n in archive.namelist()) == [
        "README.md",
        "ada/first_step.py",
        "ada/second_step.py",
        "grace/first_step.py",
        "manifest.csv",
    ]


def test_the_manifests_credit_is_the_gradebooks(client, term):
    client.force_login(term.instructor)
    rows = manifest(opened(download(client, term)))
    header, *book = list(gradebook_rows(gradebook(term.course), per_problem=True))
    shown = {
        (line[0], column.split(": ")[1]): value
        for line in book
        for column, value in zip(header, line)
        if column.startswith("Week 1: ")
    }
    assert {(r["student"], r["problem"]): r["credit"] for r in rows} == shown


def test_every_submit_inside_the_window_with_the_one_that_counts_marked(client, term):
    client.force_login(term.instructor)
    archive = opened(download(client, term, every=True))
    rows = manifest(archive)
    assert [(r["student"], r["submission"], r["counts"], r["credit"]) for r in rows] == [
        ("ada", str(term.early.pk), "no", ""),
        ("ada", str(term.right.pk), "yes", "1"),
        ("ada", str(term.again.pk), "no", ""),
        ("ada", str(term.late.pk), "yes", "0.5"),
        ("grace", str(term.wrong.pk), "yes", "0"),
        ("grace", "", "no", "0.75"),
    ]  # ada's Submit after the close is not the assignment's
    folder = archive.namelist()[0].split("/")[0]
    assert archive.read(f"{folder}/ada/first_step/{term.again.pk}.py").decode() == "def f(x):\n    return +x\n"


def test_each_download_is_in_the_course_audit_log(client, term):
    client.force_login(term.ta)
    b"".join(download(client, term, every=True).streaming_content)
    row = CourseAudit.objects.filter(course=term.course, action="downloaded work").get()
    assert (row.user, row.summary) == (term.ta, "tariq downloaded every Submit of 'Week 1' as a zip")


def test_a_refused_download_writes_nothing(client, term):
    client.force_login(term.other_instructor)
    download(client, term)
    assert not CourseAudit.objects.filter(action="downloaded work").exists()


def test_a_timed_assignment_counts_the_submits_inside_each_students_own_time(client, world):
    first = world.problems[0]
    exam = services.save_assignment(
        world.course,
        world.instructor,
        {"title": "Exam", "opens_at": DUE - timedelta(days=7), "due_at": DUE, "time_limit_minutes": 60},
        [first],
    )
    TimedStart.objects.create(assignment=exam, user=world.student, started_at=DUE - timedelta(days=1))
    before = made(world.student, first, Verdict.ACCEPTED, DUE - timedelta(days=2), "early = 1\n")  # not started
    wrong = made(world.student, first, Verdict.WRONG_ANSWER, DUE - timedelta(days=1, minutes=-10), "w = 1\n")
    right = made(world.student, first, Verdict.ACCEPTED, DUE - timedelta(days=1, minutes=-50), "r = 1\n")
    made(world.student, first, Verdict.ACCEPTED, DUE - timedelta(hours=20), "too late = 1\n")
    client.force_login(world.instructor)
    rows = manifest(opened(client.get(reverse("assignment-download", args=[world.course.pk, exam.pk]))))
    assert [(r["student"], r["submission"], r["credit"]) for r in rows] == [
        ("ada", str(right.pk), "1"),
        ("grace", "", "0"),
    ]
    rows = manifest(opened(client.get(reverse("assignment-download", args=[world.course.pk, exam.pk]) + "?every=1")))
    assert [r["submission"] for r in rows] == [str(wrong.pk), str(right.pk), ""] and str(before.pk) not in str(rows)


def test_each_students_folder_stays_inside_the_zip_and_apart_from_the_others():
    students = [
        Student(1, "..", "", None, ""),
        Student(2, "Ada", "", None, ""),
        Student(3, "ada", "", None, ""),
        Student(4, "a/../b", "", None, ""),
        Student(5, "grace", "", None, ""),
    ]
    assert student_folders(students) == {1: "student-1", 2: "Ada-2", 3: "ada-3", 4: "a_.._b", 5: "grace"}
