"""With DEBUG off the site is HTTPS-only unless JUDGE_PLAIN_HTTP=1 says this machine speaks plain HTTP.

Each case starts Django in a subprocess with a deployment's environment (no test profile), as gunicorn does.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest

from tests.conftest import REPO

REQUESTS = """
import json
import django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="judge.example.org")
plain = client.get("/accounts/login/")
proxied = client.get("/accounts/login/", headers={"X-Forwarded-Proto": "https"})
csrf = proxied.cookies.get("csrftoken")
print(json.dumps({"plain": plain.status_code, "location": plain.get("Location"), "proxied": proxied.status_code,
                  "hsts": proxied.get("Strict-Transport-Security"), "secure_cookie": bool(csrf and csrf["secure"])}))
"""


def deployment_env(tmp_path, **extra: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "VIRTUAL_ENV")}
    return (
        keep
        | {
            "DJANGO_SETTINGS_MODULE": "judge.settings",
            "JUDGE_VAR_DIR": str(tmp_path),
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "judge.example.org",
            "DATABASE_URL": "postgres://judge:a-password@db.invalid:5432/judge",
            "CELERY_BROKER_URL": "redis://:a-password@redis.invalid:6379/0",
        }
        | extra
    )


def requests_as_deployed(tmp_path, **extra: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", REQUESTS],
        cwd=REPO,
        env=deployment_env(tmp_path, **extra),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.heavy  # the site in processes of its own
def test_check_deploy_is_clean_with_the_production_settings(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=deployment_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.heavy  # the site in processes of its own
def test_a_deployment_redirects_plain_http_and_sends_hsts_and_secure_cookies_over_https(tmp_path):
    seen = requests_as_deployed(tmp_path)
    assert (seen["plain"], seen["location"]) == (301, "https://judge.example.org/accounts/login/")
    assert seen["proxied"] == 200
    assert seen["hsts"] == "max-age=31536000; includeSubDomains; preload"
    assert seen["secure_cookie"]


@pytest.mark.heavy  # the site in processes of its own
def test_the_plain_http_switch_serves_http_with_cookies_a_browser_sends_over_http(tmp_path):
    seen = requests_as_deployed(tmp_path, JUDGE_PLAIN_HTTP="1")
    assert seen["plain"] == 200
    assert seen["hsts"] is None
    assert not seen["secure_cookie"]
