"""A student's note (Markdown, sanitised, autosaved) and bookmarks on a problem: private to the student, staff
included; the problem list's "Bookmarked" filter shows their own."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from judge.learning.models import Bookmark, Note
from judge.learning.services import NOTE_MAX_CHARS
from tests.boards import quick_problem

NOTE = "**Remember** the axis: `np.concatenate(..., axis=1)` <script>alert(1)</script> $x_i$"


@pytest.fixture
def alpha(db):
    return quick_problem("alpha")


def save(client, problem, text: str, json: bool = True):
    headers = {"HTTP_ACCEPT": "application/json"} if json else {}
    return client.post(reverse("note-save", args=[problem.slug]), {"text": text}, **headers)


def test_a_note_is_kept_rendered_and_sanitised_for_its_owner(client, student, alpha):
    client.force_login(student)
    answer = save(client, alpha, NOTE)
    assert answer.status_code == 200 and answer.json()["saved"]
    html = answer.json()["html"]
    assert "<strong>Remember</strong>" in html and "<code>np.concatenate(..., axis=1)</code>" in html
    assert "<script" not in html and "alert(1)" not in html  # removed with its content
    page = client.get(reverse("problem-detail", args=["alpha"])).content.decode()
    assert "<strong>Remember</strong>" in page and "&lt;script&gt;" in page  # the textarea keeps the text as typed
    assert "<script>alert(1)</script>" not in page


def test_a_note_without_javascript_is_saved_by_its_form(client, student, alpha):
    client.force_login(student)
    answer = save(client, alpha, "plain", json=False)
    assert answer.status_code == 302 and answer["Location"] == "/problems/alpha/#notes"
    assert Note.objects.get(user=student, problem=alpha).text == "plain"


def test_nobody_else_reads_a_students_note_staff_included(client, student, second_student, author, alpha):
    client.force_login(student)
    save(client, alpha, "my secret plan")
    for other in (second_student, author):
        client.force_login(other)
        assert "my secret plan" not in client.get(reverse("problem-detail", args=["alpha"])).content.decode()
        save(client, alpha, "theirs")  # writes their own note, never the student's
    client.logout()
    assert "my secret plan" not in client.get(reverse("problem-detail", args=["alpha"])).content.decode()
    assert save(client, alpha, "a visitor's").status_code == 302  # to the login page
    assert Note.objects.get(user=student, problem=alpha).text == "my secret plan"
    assert Note.objects.count() == 3


def test_a_note_too_long_is_refused_and_the_old_one_kept(client, student, alpha):
    client.force_login(student)
    save(client, alpha, "short")
    answer = save(client, alpha, "x" * (NOTE_MAX_CHARS + 1))
    assert answer.status_code == 400
    assert answer.json()["error"] == f"a note holds at most 20,000 characters; this one has {NOTE_MAX_CHARS + 1:,}"
    assert Note.objects.get(user=student, problem=alpha).text == "short"


def test_an_emptied_note_is_forgotten(client, student, alpha):
    client.force_login(student)
    save(client, alpha, "something")
    assert save(client, alpha, "  \n").json() == {"saved": True, "html": ""}
    assert not Note.objects.exists()


def test_no_note_or_bookmark_on_a_problem_the_student_cannot_see(client, student, db):
    hidden = quick_problem("hidden", published=False)
    client.force_login(student)
    assert save(client, hidden, "x").status_code == 404
    assert client.post(reverse("bookmark-set", args=["hidden"]), {"on": "1"}).status_code == 404
    assert not Note.objects.exists() and not Bookmark.objects.exists()


def listed_slugs(client, query: str = "") -> list[str]:
    page = client.get(reverse("problem-list") + query).content.decode()
    return re.findall(r'<tr class="[^"]*" data-slug="([a-z_]+)"', page)


def test_the_bookmarked_filter_shows_ones_own_bookmarks(client, student, second_student, alpha):
    quick_problem("beta", order=1)
    client.force_login(student)
    answer = client.post(reverse("bookmark-set", args=["alpha"]), {"on": "1"}, HTTP_HX_REQUEST="true")
    assert "Bookmarked" in answer.content.decode() and 'aria-pressed="true"' in answer.content.decode()
    assert listed_slugs(client) == ["alpha", "beta"]
    assert listed_slugs(client, "?bookmarked=1") == ["alpha"]

    client.force_login(second_student)
    assert listed_slugs(client, "?bookmarked=1") == []
    assert "No bookmarked problem matches" in client.get(reverse("problem-list") + "?bookmarked=1").content.decode()

    client.force_login(student)
    assert client.post(reverse("bookmark-set", args=["alpha"]), {"on": "0"}).status_code == 302
    assert listed_slugs(client, "?bookmarked=1") == []
