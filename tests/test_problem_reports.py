"""Problem reports: a student or a course's staff member reports that a problem itself is wrong (a test, the
statement) from a submission; the report reaches the problem's authors in the workbench with the submission's
verdict, and its code only when the person who wrote the code chose to share it; the authors' answer comes back
to the reporter."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse

from judge.authoring.models import ProblemReport, ReportStatus
from tests.courses import DUE, world  # noqa: F401 (fixture)
from tests.desk_release import graded

CODE_MARK = "import numpy as np"


def report(client, submission, message="The hidden test's expected output has the wrong sign.", **fields):
    return client.post(
        reverse("problem-report", args=[submission.pk]), {"kind": "wrong_test", "message": message, **fields}
    )


def workbench(client, problem) -> str:
    return client.get(reverse("authoring-reports", args=[problem.slug])).content.decode()


def test_a_students_report_reaches_the_authors_with_their_code_only_if_shared(client, world, django_user_model):
    w = world
    author = django_user_model.objects.get(username="staffer")  # authors are the site's staff
    shared = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    kept = graded(w.second, w.problems[0], at=DUE - timedelta(hours=1))
    client.force_login(w.student)
    assert report(client, shared, share_code="1").status_code == 302
    client.force_login(w.second)
    report(client, kept, "The statement never says which axis.")

    client.force_login(author)
    home = client.get(reverse("authoring-home")).content.decode()
    assert f'href="{reverse("authoring-reports", args=[w.problems[0].slug])}" class="open-reports">2<' in home
    page = workbench(client, w.problems[0])
    first = page[page.index(f'id="report-{ProblemReport.objects.get(reporter=w.student).pk}"') :]
    first = first[: first.index("</article>")]
    second = page[page.index(f'id="report-{ProblemReport.objects.get(reporter=w.second).pk}"') :]
    second = second[: second.index("</article>")]
    assert "wrong sign" in first and "Wrong answer" in first and CODE_MARK in first
    assert "which axis" in second and CODE_MARK not in second and "The code was not shared" in second


def test_a_ta_reports_from_a_students_work_without_their_code(client, world, django_user_model):
    w = world
    submission = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    client.force_login(w.ta)
    answer = client.post(
        reverse("problem-report", args=[submission.pk]),
        {"course": w.course.pk, "kind": "unclear", "message": "Three students asked the same.", "share_code": "1"},
    )
    assert answer["Location"] == reverse("desk-submission", args=[w.course.pk, submission.pk]) + "#report"
    found = ProblemReport.objects.get()
    assert (found.reporter, found.share_code, found.code_shared) == (w.ta, False, False)
    client.force_login(django_user_model.objects.get(username="staffer"))
    assert CODE_MARK not in workbench(client, w.problems[0])


def test_the_authors_answer_reaches_the_reporter(client, world, django_user_model):
    w = world
    submission = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    client.force_login(w.student)
    report(client, submission)
    found = ProblemReport.objects.get()
    client.force_login(django_user_model.objects.get(username="staffer"))
    client.post(
        reverse("authoring-reports", args=[w.problems[0].slug]),
        {"report": found.pk, "answer": "Fixed in the next test set; a rejudge follows.", "status": "answered"},
    )
    found.refresh_from_db()
    assert found.status == ReportStatus.ANSWERED
    client.force_login(w.student)
    page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "The authors answered: Fixed in the next test set; a rejudge follows." in page


def test_who_may_report_and_who_reads_reports(client, world):
    w = world
    submission = graded(w.student, w.problems[0], at=DUE - timedelta(hours=1))
    codes = {}
    for name, user in [("second", w.second), ("stranger", w.stranger), ("other_instructor", w.other_instructor)]:
        client.force_login(user)
        codes[name] = (
            report(client, submission).status_code,
            client.post(
                reverse("problem-report", args=[submission.pk]),
                {"course": w.course.pk, "kind": "other", "message": "x"},
            ).status_code,
        )
    client.force_login(w.student)
    codes["student in the workbench"] = client.get(reverse("authoring-reports", args=[w.problems[0].slug])).status_code
    assert codes == {
        "second": (404, 403),
        "stranger": (404, 404),
        "other_instructor": (404, 404),
        "student in the workbench": 403,
    }
    assert not ProblemReport.objects.exists()


def test_an_empty_report_is_refused_with_a_reason(client, world):
    submission = graded(world.student, world.problems[0], at=DUE - timedelta(hours=1))
    client.force_login(world.student)
    page = client.get(report(client, submission, "  ")["Location"]).content.decode()
    assert "Say what is wrong, so that the problem&#x27;s authors can check it." in page
    assert not ProblemReport.objects.exists()
