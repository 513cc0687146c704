"""/healthz says the process answers; /readyz says whether the site can grade now, and what is missing if not.
Compose's health checks ask endpoints that exist."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
import yaml
from django.utils import timezone

from judge.submissions.models import WorkerHeartbeat
from tests.conftest import REPO

pytestmark = pytest.mark.django_db


def beat(seconds_ago: float, lanes: str = "run,submit,rejudge") -> None:
    now = timezone.now()
    WorkerHeartbeat.objects.create(
        hostname=f"celery@w-{lanes}",
        host="grader",
        pid=5,
        lanes=lanes,
        slots=2,
        started_at=now - timedelta(hours=1),
        seen_at=now - timedelta(seconds=seconds_ago),
    )


def test_healthz_answers_without_asking_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert (response.status_code, response.content) == (200, b"ok\n")


def test_readyz_is_ready_with_the_database_the_broker_and_a_grading_worker_heard_from(client):
    beat(3)
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["ready"] is True
    assert body["checks"]["database"]["ok"] and body["checks"]["grading_worker"]["ok"]


def test_readyz_fails_when_no_grading_worker_has_ever_beaten(client):
    response = client.get("/readyz")
    assert response.status_code == 503
    check = response.json()["checks"]["grading_worker"]
    assert not check["ok"] and check["detail"] == "no grading worker has written a heartbeat"


def test_readyz_fails_when_the_grading_workers_have_fallen_silent(client, settings):
    beat(45)
    beat(1, lanes="maintenance")  # the maintenance worker grades nothing
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["ready"] is False and body["checks"]["database"]["ok"]
    assert re.fullmatch(
        r"no grading worker heard from for 4[5-9] s \(WORKER_SILENT_AFTER_S is 30\)",
        body["checks"]["grading_worker"]["detail"],
    )


def test_readyz_fails_naming_the_broker_when_its_redis_does_not_answer(client, settings):
    beat(1)
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/readyz")
    assert response.status_code == 503
    broker = response.json()["checks"]["broker"]
    assert broker == {"ok": False, "detail": "Redis does not answer"}  # the error's text (its host) is only logged


def test_readyz_asks_no_broker_on_the_embedded_default(client, settings):
    beat(1)
    settings.CELERY_BROKER_URL = "filesystem://"
    response = client.get("/readyz")
    assert response.status_code == 200 and "broker" not in response.json()["checks"]


def test_probes_answer_on_the_containers_own_address_over_plain_http(client, settings):
    """Compose asks http://127.0.0.1:8000/healthz inside the container: whatever host the site is served as, and
    though production redirects plain HTTP to HTTPS, the probe gets its answer."""
    settings.ALLOWED_HOSTS = ["judge.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz", HTTP_HOST="127.0.0.1:8000").status_code == 200
    assert client.get("/readyz", HTTP_HOST="127.0.0.1:8000").status_code in (200, 503)
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400  # the pages still check the host


COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_every_long_running_compose_service_has_a_health_check():
    services = COMPOSE["services"]
    running = [
        name
        for name, service in services.items()
        if service.get("restart", "unless-stopped") != "no" and name not in ("postgres", "redis")
    ]
    assert set(running) == {"web", "worker", "speed", "maintenance"}
    for name in running:
        assert services[name].get("healthcheck"), f"{name} has no health check"


def test_the_web_services_health_check_asks_an_endpoint_that_answers(client):
    command = " ".join(COMPOSE["services"]["web"]["healthcheck"]["test"])
    urls = re.findall(r"http://127\.0\.0\.1:(\d+)(/[\w/]*)", command)
    assert urls, command
    for port, path in urls:
        assert port == "8000"  # where gunicorn listens in the container (deploy/gunicorn.conf.py)
        assert client.get(path, HTTP_HOST=f"127.0.0.1:{port}").status_code == 200


def test_the_worker_health_checks_read_the_beat_file_the_workers_touch():
    env = COMPOSE["x-app"]["environment"]
    beat_file = env["WORKER_BEAT_FILE"]
    for name in ("worker", "speed", "maintenance"):
        assert beat_file in " ".join(COMPOSE["services"][name]["healthcheck"]["test"])


@pytest.mark.heavy
@pytest.mark.django_db(transaction=True)
def test_with_the_database_down_the_site_is_alive_but_not_ready_and_says_which_part_is_missing(tmp_path):
    """The web server as compose starts it, its database unreachable: the liveness probe still answers (the
    orchestrator must not restart a web process for the database's sake), and /readyz is a 503 naming the
    database, without the host or user the error mentions."""
    from tests.test_request_body_limits_over_sockets import free_port, server_env

    port = free_port()
    env = server_env(port, str(tmp_path), DATABASE_URL="postgres://judge@127.0.0.1:1/judge")  # nothing listens
    log = open(tmp_path / "web.log", "wb")  # noqa: SIM115  (closed below)
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "judge.asgi"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        health = probe(port, "/healthz", web, tmp_path / "web.log")
        assert health == (200, b"ok\n")
        status, body = probe(port, "/readyz", web, tmp_path / "web.log")
        assert status == 503
        checks = json.loads(body)["checks"]
        assert checks["database"] == {"ok": False, "detail": "does not answer"}
        assert checks["grading_worker"]["ok"] is False
        assert b"127.0.0.1:1" not in body and b"judge@" not in body
    finally:
        os.killpg(web.pid, signal.SIGINT)
        web.wait(timeout=20)
        log.close()


def probe(port: int, path: str, web: subprocess.Popen, log) -> tuple[int, bytes]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert web.poll() is None, log.read_text()[-3000:]
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=20) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read()
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the site did not answer within 60 s:\n{log.read_text()[-3000:]}")
