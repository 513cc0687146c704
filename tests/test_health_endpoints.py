"""/healthz says the process answers; /readyz says whether the site can grade now, and what is missing if not.
Compose's health checks ask endpoints that exist."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import yaml
from django.utils import timezone

from judge.submissions.models import WorkerHeartbeat
from tests.conftest import REPO

pytestmark = pytest.mark.django_db


def beat(seconds_ago: float, lanes: str = "run,submit,rejudge") -> None:
    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname=f"celery@w-{lanes}", host="grader", pid=5, lanes=lanes, slots=2,
                                   started_at=now - timedelta(hours=1), seen_at=now - timedelta(seconds=seconds_ago))


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
    assert re.fullmatch(r"no grading worker heard from for 4[5-9] s \(WORKER_SILENT_AFTER_S is 30\)",
                        body["checks"]["grading_worker"]["detail"])


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
    running = [name for name, service in services.items() if service.get("restart", "unless-stopped") != "no"
               and name not in ("postgres", "redis")]
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
