"""A student who hits a wrong address, a forbidden page or a crash sees the site's own page, never a debug page."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from django.urls import include, path

from tests.conftest import REPO


def crash(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [path("boom/", crash), path("", include("judge.urls"))]


def test_an_unknown_address_shows_the_sites_404_page_without_the_url_list(client, db):
    response = client.get("/no/such/page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "There is no page here" in page and "/no/such/page/" in page
    assert "Back to the problems" in page and "Leaderboard" in page  # the site's header and a way on
    assert "URLconf" not in page and "admin/" not in page


def test_a_student_on_a_staff_page_sees_why_on_the_sites_403_page(client, student):
    client.force_login(student)
    response = client.get("/authoring/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "You may not open this page" in page and "Only staff can author problems." in page


def test_a_stale_form_explains_itself_instead_of_djangos_csrf_page(db):
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "ada", "password": "x"})
    page = response.content.decode()
    assert response.status_code == 403
    assert "This form has expired" in page and "CSRF verification failed" not in page


@pytest.mark.urls("tests.test_error_pages")
def test_a_crash_shows_the_sites_500_page(client, db):
    client.raise_request_exception = False
    response = client.get("/boom/")
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in page and "a bug in a view" not in page
    assert "Traceback" not in page


EMBEDDED = """
import django
from django.conf import settings
django.setup()
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
client = Client()
missing, css = client.get("/no/such/page/"), client.get("/static/judge/site.css")
print(settings.DEBUG, missing.status_code, "URLconf" in missing.content.decode(), css.status_code)
"""


@pytest.mark.heavy  # the site in processes of its own
def test_the_embedded_default_runs_without_debug_and_still_serves_its_static_files(tmp_path):
    """As bin/run starts it: no DEBUG, DATABASE_URL or SECRET_KEY in the environment."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "DATABASE_URL", "SECRET_KEY", "CELERY_BROKER_URL", "JUDGE_TEST")
    }
    env.update(JUDGE_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="judge.settings")
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=REPO, env=env, check=True)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(EMBEDDED)],
        cwd=REPO,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "404", "False", "200"]


@pytest.mark.heavy  # the site in processes of its own
def test_a_deployment_without_a_secret_key_refuses_to_start(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "JUDGE_TEST")}
    env.update(
        JUDGE_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="judge.settings",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/nowhere",
    )
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=REPO,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr
