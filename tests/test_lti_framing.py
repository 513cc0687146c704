"""Framed by an LMS: LTI_FRAME_ANCESTORS lets those origins (and only those) frame the site, and the cookies then
carry SameSite=None; Secure so that a framed page keeps its session. Without it nothing may frame the site."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO
from tests.test_production_settings import deployment_env

FRAMED = """
import json
import django
django.setup()
from django.test import Client
answer = Client(HTTP_HOST="judge.example.org").get("/accounts/login/", headers={"X-Forwarded-Proto": "https"})
csrf = answer.cookies["csrftoken"]
print(json.dumps({"csp": answer["Content-Security-Policy"], "xfo": answer.get("X-Frame-Options"),
                  "samesite": csrf["samesite"], "secure": bool(csrf["secure"])}))
"""


def framed(tmp_path, **extra: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", FRAMED],
        cwd=REPO,
        env=deployment_env(tmp_path, **extra),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.heavy  # the site in processes of its own
def test_only_the_named_lms_origins_may_frame_the_site_and_cookies_then_cross_sites(tmp_path):
    answer = framed(tmp_path, LTI_FRAME_ANCESTORS="https://school.instructure.com https://moodle.example.edu")
    assert "frame-ancestors 'self' https://school.instructure.com https://moodle.example.edu" in answer["csp"]
    assert answer["xfo"] is None
    assert (answer["samesite"], answer["secure"]) == ("None", True)


@pytest.mark.heavy  # the site in processes of its own
def test_by_default_nothing_frames_the_site(tmp_path):
    answer = framed(tmp_path)
    assert "frame-ancestors 'none'" in answer["csp"] and answer["xfo"] == "DENY"
    assert answer["samesite"] == "Lax"


@pytest.mark.heavy  # the site in processes of its own
def test_a_frame_origin_that_is_not_https_stops_the_site_from_starting(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", FRAMED],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=deployment_env(tmp_path, LTI_FRAME_ANCESTORS="lms.example.edu"),
    )
    assert done.returncode != 0 and "LTI_FRAME_ANCESTORS holds origins such as" in done.stderr
