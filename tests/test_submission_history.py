"""Each student's history on a problem, and the difference between two of their submissions."""

from __future__ import annotations

from engine.verdicts import Verdict
from tests.students import graded

SLUG = "prepend_class_token"


def test_the_history_lists_only_the_students_own_attempts(client, problems, student, second_student):
    mine = graded(student, problems[SLUG], Verdict.WRONG_ANSWER)
    theirs = graded(second_student, problems[SLUG])
    client.force_login(student)
    page = client.get(f"/problems/{SLUG}/history/").content.decode()
    assert f"#{mine.pk}" in page and f"#{theirs.pk}" not in page


def test_the_diff_shows_what_changed_between_two_submissions(client, problems, student):
    first = graded(
        student,
        problems[SLUG],
        Verdict.WRONG_ANSWER,
        minute=1,
        code="import numpy as np\n\ndef f(x):\n    return x.astype(np.float32)\n",
    )
    second = graded(student, problems[SLUG], minute=2, code="import numpy as np\n\ndef f(x):\n    return x.copy()\n")
    client.force_login(student)
    page = client.get(f"/submissions/diff/?a={second.pk}&b={first.pk}").content.decode()  # any order
    assert '<span class="removed">-    return x.astype(np.float32)' in page
    assert '<span class="added">+    return x.copy()' in page
    assert '<span class="same"> def f(x):' in page


def test_diffing_against_another_students_submission_is_refused(client, problems, student, second_student):
    mine = graded(student, problems[SLUG])
    theirs = graded(second_student, problems[SLUG], code="# grace's code\n")
    client.force_login(student)
    response = client.get(f"/submissions/diff/?a={mine.pk}&b={theirs.pk}")
    assert response.status_code == 404 and b"grace's code" not in response.content


def test_a_students_submission_page_shows_their_code(client, problems, student, second_student):
    mine = graded(student, problems[SLUG], code="# ada's idea\n")
    client.force_login(student)
    assert "ada&#x27;s idea" in client.get(f"/submissions/{mine.pk}/").content.decode()
    client.force_login(second_student)
    assert client.get(f"/submissions/{mine.pk}/").status_code == 404
