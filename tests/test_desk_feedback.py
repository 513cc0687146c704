"""Feedback on code: the course's staff comment on a line of a student's submission or on the whole of it (in
Markdown, sanitised as authored Markdown is); the student reads the comments on that submission, sees how many
are unread on their course page, and answers each once; only a comment's author edits or deletes it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.verdicts import Verdict
from judge.courses.models import Feedback
from judge.submissions.models import Kind, Status, Submission
from tests.courses import world  # noqa: F401 (fixture)

CODE = "import numpy as np\n\ndef f(x):\n    return np.sum(x, axis=0)\n"


@pytest.fixture
def submitted(world):
    problem = world.problems[0]
    submission = Submission.objects.create(
        user=world.student,
        problem=problem,
        kind=Kind.SUBMIT,
        code=CODE,
        test_set_id=problem.current_test_set_id,
        status=Status.DONE,
        verdict=Verdict.WRONG_ANSWER,
    )
    return world, submission


def comment(client, w, submission, body: str, line: str = ""):
    return client.post(reverse("desk-feedback", args=[w.course.pk, submission.pk]), {"body": body, "line": line})


def test_a_ta_comments_on_a_line_and_the_student_reads_it_once_as_new(client, submitted):
    w, submission = submitted
    client.force_login(w.ta)
    assert comment(client, w, submission, "Sum over **axis 1**: each row is one sample.", "4").status_code == 302
    comment(client, w, submission, "Good start; read the shapes again.")
    client.force_login(w.student)
    home = client.get(reverse("course-home", args=[w.course.pk])).content.decode()
    assert "<strong>2</strong> unread comments" in home and f'href="/submissions/{submission.pk}/"' in home
    page = client.get(reverse("submission-detail", args=[submission.pk])).content.decode()
    code = page[page.index('id="code"') :]
    line4 = code[code.index('<span class="line" data-line="4">') :]
    assert "<strong>axis 1</strong>" in line4 and "Good start" not in code  # under line 4; the overall one above
    assert page.count('class="feedback unread"') == 2  # new on this visit
    assert "Good start; read the shapes again." in page[page.index('id="overall-feedback"') : page.index("<h2>Code")]
    home = client.get(reverse("course-home", args=[w.course.pk])).content.decode()
    assert "unread comment" not in home
    assert (
        'class="feedback unread"' not in client.get(reverse("submission-detail", args=[submission.pk])).content.decode()
    )


def test_comment_markdown_is_sanitised_like_authored_markdown(client, submitted):
    w, submission = submitted
    client.force_login(w.instructor)
    comment(client, w, submission, 'See <script>alert(1)</script> and <a href="javascript:alert(2)">this</a>.')
    client.force_login(w.student)
    page = client.get(reverse("submission-detail", args=[submission.pk])).content.decode()
    assert "<script>alert(1)" not in page and "javascript:alert" not in page and "this</a>" in page


def test_the_student_answers_each_comment_once(client, submitted):
    w, submission = submitted
    client.force_login(w.ta)
    comment(client, w, submission, "Why axis 0?", "4")
    feedback = Feedback.objects.get()
    client.force_login(w.student)
    reply = reverse("feedback-reply", args=[feedback.pk])
    assert client.post(reply, {"body": "I thought rows were axis 0."}).status_code == 302
    assert client.post(reply, {"body": "And again"}).status_code == 400
    client.force_login(w.second)  # not their submission
    assert client.post(reply, {"body": "me too"}).status_code == 403
    client.force_login(w.ta)
    page = client.get(reverse("desk-submission", args=[w.course.pk, submission.pk])).content.decode()
    assert "I thought rows were axis 0." in page and "And again" not in page and "me too" not in page


def test_only_the_author_edits_or_deletes_a_comment(client, submitted):
    w, submission = submitted
    client.force_login(w.ta)
    comment(client, w, submission, "Tariq's first words")
    feedback = Feedback.objects.get()
    change = reverse("desk-feedback-change", args=[w.course.pk, feedback.pk])
    client.force_login(w.instructor)  # staff too, but not the author
    assert client.post(change, {"action": "edit", "body": "Iris's words"}).status_code == 403
    assert client.post(change, {"action": "delete"}).status_code == 403
    client.force_login(w.ta)
    assert client.post(change, {"action": "edit", "body": "Tariq's better words"}).status_code == 302
    assert Feedback.objects.get().body_md == "Tariq's better words" and Feedback.objects.get().edited_at
    assert client.post(change, {"action": "delete"}).status_code == 302
    assert not Feedback.objects.exists()


@pytest.mark.parametrize(
    "persona, code", [("student", 403), ("second", 403), ("stranger", 404), ("other_instructor", 404)]
)
def test_nobody_but_the_courses_staff_comments(client, submitted, persona, code):
    w, submission = submitted
    client.force_login(getattr(w, persona))
    assert comment(client, w, submission, "sneaky").status_code == code
    assert not Feedback.objects.exists()


def test_a_comment_on_a_line_the_code_does_not_have_is_refused(client, submitted):
    w, submission = submitted
    client.force_login(w.ta)
    response = comment(client, w, submission, "off the end", "40")
    assert "Choose a line between 1 and 4." in client.get(response["Location"]).content.decode()
    assert not Feedback.objects.exists()
