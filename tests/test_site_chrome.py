"""What every page carries: a favicon, and a footer naming the sandbox the grading workers use (issue 25 §2:
there was no favicon, and the footer named what the web process guessed from its own settings)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import cache

from judge.submissions.models import Submission
from tests.students import graded


def test_pages_link_a_favicon_that_exists(client, db):
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/judge/favicon.svg" type="image/svg+xml">' in page
    icon = finders.find("judge/favicon.svg")
    assert icon and Path(icon).read_text().lstrip().startswith("<svg")
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301 and answer["Location"] == "/static/judge/favicon.svg"


def test_the_footer_names_the_sandbox_the_worker_reported(client, problems, student):
    assert settings.SANDBOX_BACKEND in ("process", "auto")  # what this web process would have guessed
    submission = graded(student, problems["prepend_class_token"])
    Submission.objects.filter(pk=submission.pk).update(sandbox={"backend": "docker", "numpy": "2.2.6"})
    cache.clear()
    page = client.get("/").content.decode()
    assert "Solutions run with NumPy 2.2.6 in the grading worker's docker sandbox." in page
    assert "weaker than Docker" not in page


def test_before_any_grading_the_footer_does_not_guess_the_sandbox_but_names_the_numpy_pin(client, db):
    page = client.get("/").content.decode()
    assert "Solutions run with NumPy 2.2.6 in the grading worker's sandbox.</footer>" in page
