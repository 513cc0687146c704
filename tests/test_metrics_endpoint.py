"""/metrics: what a Prometheus scrape finds after the site has worked, and who may scrape it."""

from __future__ import annotations

import ipaddress
import socket
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from judge.grading import services as grading
from judge.lti.models import ScoreStatus
from judge.problems.models import GateRun
from judge.submissions import workers
from judge.submissions.models import Submission, WorkerHeartbeat
from judge.submissions.services.intake import submit_solution
from tests.conftest import read_solution

pytestmark = pytest.mark.django_db


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    """Every sample of a scrape from this machine: (name, sorted labels) -> value."""
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_a_graded_submission_is_counted_with_its_verdict_latency_and_grading_time(
    client, problems, student, no_enqueue, settings
):
    settings.METRICS_CACHE_S = 0  # every scrape reads the table
    before = scrape(client)
    assert value(before, "judge_submissions_graded_total", kind="submit", verdict="accepted") == 0
    submission = submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    waiting = scrape(client)
    assert value(waiting, "judge_submissions_waiting", kind="submit") == 1
    assert grading.grade_submission(submission.pk)
    after = scrape(client)

    assert value(after, "judge_submissions_graded_total", kind="submit", verdict="accepted") == 1
    assert value(after, "judge_submissions_graded_total", kind="submit", verdict="wrong_answer") == 0
    assert value(after, "judge_submissions_waiting", kind="submit") == 0
    assert value(after, "judge_submission_latency_seconds_count") == 1
    assert value(after, "judge_submission_latency_seconds_bucket", le="+Inf") == 1
    assert value(after, "judge_grading_seconds_count") == 1
    graded = Submission.objects.get(pk=submission.pk)
    assert value(after, "judge_grading_seconds_sum") == pytest.approx(graded.grading_ms / 1000)
    # The submission falls in the first bucket at least as long as its grading took, and in every one above.
    bounds = sorted(
        float(dict(labels)["le"])
        for (name, labels) in after
        if name == "judge_grading_seconds_bucket" and dict(labels)["le"] != "+Inf"
    )
    first = next(b for b in bounds if b * 1000 >= graded.grading_ms)
    for bound in bounds:
        expected = 1 if bound >= first else 0
        assert value(after, "judge_grading_seconds_bucket", le=str(bound)) == expected
    assert value(after, "judge_last_verdict_timestamp_seconds") == pytest.approx(graded.finished_at.timestamp())


def test_the_graded_figures_are_read_once_per_cache_period_while_the_queue_is_live(
    client, problems, student, no_enqueue, settings
):
    from django.core.cache import cache

    settings.METRICS_CACHE_S = 30
    assert value(scrape(client), "judge_submissions_graded_total", kind="submit", verdict="accepted") == 0
    submission = submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    assert value(scrape(client), "judge_submissions_waiting", kind="submit") == 1  # not from the cache
    grading.grade_submission(submission.pk)
    within_the_period = scrape(client)
    assert value(within_the_period, "judge_submissions_graded_total", kind="submit", verdict="accepted") == 0
    assert value(within_the_period, "judge_submissions_waiting", kind="submit") == 0
    cache.delete("metrics:graded-groups")  # what the period's end does
    assert value(scrape(client), "judge_submissions_graded_total", kind="submit", verdict="accepted") == 1


def test_the_oldest_waiting_submission_is_reported_by_how_long_it_has_waited(client, problems, student, no_enqueue):
    assert value(scrape(client), "judge_oldest_waiting_submission_seconds") == 0
    older = submit_solution(student, problems["prepend_class_token"], "x = 1")
    submit_solution(student, problems["prepend_class_token"], "x = 2")
    Submission.objects.filter(pk=older.pk).update(enqueued_at=timezone.now() - timedelta(seconds=90))
    waited = value(scrape(client), "judge_oldest_waiting_submission_seconds")
    assert 90 <= waited < 120


def test_workers_their_slots_and_their_sandboxes_are_reported(client, problems, student, no_enqueue, monkeypatch):
    now = timezone.now()
    WorkerHeartbeat.objects.create(
        hostname="celery@grader",
        host=socket.gethostname(),
        pid=1,
        lanes="run,submit,rejudge",
        slots=3,
        started_at=now,
        seen_at=now,
    )
    WorkerHeartbeat.objects.create(
        hostname="celery@gone",
        host="elsewhere",
        pid=1,
        lanes="run,submit,rejudge",
        slots=2,
        started_at=now,
        seen_at=now - timedelta(minutes=5),
    )
    monkeypatch.setattr(workers, "_reported", {})  # this test process reports its sandbox afresh
    submission = submit_solution(student, problems["prepend_class_token"], read_solution("prepend_class_token"))
    grading.grade_submission(submission.pk)
    samples = scrape(client)

    assert value(samples, "judge_grading_slots_alive") == 3  # the silent worker's slots are not counted
    assert value(samples, "judge_worker_slots", worker="celery@gone", host="elsewhere", lanes="run,submit,rejudge") == 2
    assert (
        value(
            samples,
            "judge_worker_heartbeat_age_seconds",
            worker="celery@gone",
            host="elsewhere",
            lanes="run,submit,rejudge",
        )
        >= 300
    )
    pools = [(dict(labels), n) for (name, labels), n in samples.items() if name == "judge_sandbox_pool_size"]
    assert pools and all(labels["host"] == socket.gethostname() for labels, _ in pools)
    assert sum(n for _, n in pools) >= 1
    assert {labels["backend"] for labels, _ in pools} <= {"docker", "process"}


def test_gate_runs_are_counted_by_state(client, problems):
    samples = scrape(client)
    assert value(samples, "judge_gate_runs", state="passed") == GateRun.objects.filter(passed=True).count() >= 3
    GateRun.objects.create(problem=problems["prepend_class_token"], package_hash="x" * 64)
    assert value(scrape(client), "judge_gate_runs", state="queued") == 1


def test_score_posts_are_counted_by_state_and_every_state_is_shown(client):
    samples = scrape(client)
    shown = {dict(labels)["state"] for (name, labels) in samples if name == "judge_lti_score_posts"}
    assert shown == set(ScoreStatus.values)  # a state no post is in yet is shown at 0, so a dashboard can plot it
    assert {"pending", "sent", "failed", "held"} <= shown


def test_http_responses_are_counted_by_status(client):
    before = scrape(client)
    client.get("/")
    client.get("/no-such-page/")
    after = scrape(client)
    assert (
        value(after, "judge_http_responses_total", status="200")
        == value(before, "judge_http_responses_total", status="200") + 1
    )
    assert (
        value(after, "judge_http_responses_total", status="404")
        == value(before, "judge_http_responses_total", status="404") + 1
    )


@pytest.mark.parametrize("address", ["203.0.113.9", "10.1.2.3", "2001:db8::1"])
def test_metrics_are_refused_to_an_address_outside_the_operators_networks(client, address):
    response = client.get("/metrics", REMOTE_ADDR=address)
    assert response.status_code == 403
    assert b"METRICS_TOKEN" in response.content and b"judge_" not in response.content


def test_metrics_are_served_to_loopback_and_to_a_configured_network(client, settings):
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200
    settings.METRICS_NETWORKS = [ipaddress.ip_network("10.0.0.0/8")]
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403  # loopback no longer listed


def test_the_token_opens_metrics_from_anywhere_and_a_wrong_one_does_not(client, settings):
    settings.METRICS_TOKEN = "s3cret-metrics-token-0123456789"
    outside = {"REMOTE_ADDR": "203.0.113.9"}
    assert client.get("/metrics", **outside).status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong-token-0123456789", **outside).status_code == 403
    assert (
        client.get("/metrics", HTTP_AUTHORIZATION="Basic s3cret-metrics-token-0123456789", **outside).status_code == 403
    )
    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-metrics-token-0123456789", **outside)
    assert response.status_code == 200 and b"judge_submissions_waiting" in response.content


def test_no_token_is_accepted_while_none_is_configured(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ", REMOTE_ADDR="203.0.113.9").status_code == 403


def test_behind_a_proxy_the_clients_address_decides_not_the_proxys(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    through_proxy = {"REMOTE_ADDR": "127.0.0.1"}  # nginx on the same host
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9", **through_proxy).status_code == 403
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="127.0.0.1", **through_proxy).status_code == 200


def test_metrics_answer_a_scrape_by_the_containers_name_over_plain_http(client, settings):
    """Prometheus asks http://web:8000/metrics: neither the host check nor the HTTPS redirect may stop it."""
    settings.ALLOWED_HOSTS = ["judge.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/metrics", HTTP_HOST="web:8000", REMOTE_ADDR="127.0.0.1").status_code == 200


def test_the_grafana_dashboard_asks_only_for_figures_the_site_exposes(client, settings):
    import json
    import re

    from tests.conftest import REPO

    dashboard = json.loads((REPO / "deploy" / "grafana-dashboard.json").read_text())
    asked = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\bjudge_[a-z_]+", target["expr"])
    }
    client.get("/")  # an HTTP response counted
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    exposed = set()
    for family in text_string_to_metric_families(response.content.decode()):
        suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}.get(family.type, ("",))
        exposed |= {family.name + suffix for suffix in suffixes}
    assert asked and asked <= exposed, asked - exposed


def test_the_embedded_defaults_queue_folder_is_counted_per_queue(client, settings, tmp_path):
    """bin/run's broker is a folder: an operator of the embedded default sees its backlog too."""
    from kombu import Connection

    settings.CELERY_BROKER_URL, settings.BROKER_DIR = "filesystem://", tmp_path
    folders = {f"{name}_folder": str(tmp_path / name) for name in ("processed", "control", "claimed", "damaged")}
    for path in folders.values():
        (tmp_path / path).mkdir()
    (tmp_path / "queue").mkdir()
    options = {"data_folder_in": str(tmp_path / "queue"), "data_folder_out": str(tmp_path / "queue"), **folders}
    with Connection(transport="judge.lib.file_broker:Transport", transport_options=options) as connection:
        for queue, n in (("submit", 3), ("run", 1)):
            with connection.SimpleQueue(queue) as messages:
                for i in range(n):
                    messages.put({"n": i})
        with connection.SimpleQueue("submit") as messages:
            messages.get(timeout=1).ack()  # a worker took one
    samples = scrape(client)
    assert value(samples, "judge_broker_messages", queue="submit") == 2
    assert value(samples, "judge_broker_messages", queue="run") == 1
    assert ("judge_broker_messages", (("queue", "rejudge"),)) in samples  # an empty queue is a 0, not missing
