"""The production stack: `docker compose up` serves the site and grades a submission sent over HTTP.

Slow (images built on first use, about two minutes on a fresh machine, then
cached), so it runs once: one correct and one wrong submission.  The stack gates
the problems in the background (its `sync` one-off); the test waits for the one it
submits to, the third in learning-path order, and then stops the sync.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import docker
import pytest

from tests.conftest import REPO, read_solution

pytestmark = [pytest.mark.docker, pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def stack(docker_image):
    built = subprocess.run([str(REPO / "deploy" / "build.sh")], capture_output=True, text=True, timeout=1200)
    assert built.returncode == 0, built.stderr[-3000:]
    port = free_port()
    project = f"judge-test-{uuid.uuid4().hex[:8]}"
    # The test run's own service URLs must not leak into the stack's containers.
    inherited = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "DOCKER_HOST", "TMPDIR")}
    # The local example of docs/operators/compose.md#secrets-and-settings: its own secrets, and plain HTTP on 127.0.0.1 (no TLS proxy in front).
    env = inherited | {
        "JUDGE_HTTP_PORT": str(port),
        "SANDBOX_IMAGE": docker_image,
        "JUDGE_PLAIN_HTTP": "1",
        "SECRET_KEY": uuid.uuid4().hex * 2,
        "POSTGRES_PASSWORD": uuid.uuid4().hex,
        "REDIS_PASSWORD": uuid.uuid4().hex,
    }
    compose = ["docker", "compose", "-p", project, "-f", str(REPO / "docker-compose.yml")]
    try:
        up = subprocess.run([*compose, "up", "-d", "--wait"], env=env, capture_output=True, text=True, timeout=600)
        logs = subprocess.run([*compose, "logs", "--no-color"], env=env, capture_output=True, text=True).stdout
        assert up.returncode == 0, up.stderr[-2000:] + logs[-4000:]
        wait_until_serving(f"http://127.0.0.1:{port}")
        yield f"http://127.0.0.1:{port}", compose, env
    finally:
        subprocess.run(
            [*compose, "down", "-v", "--remove-orphans", "-t", "5"], env=env, capture_output=True, timeout=300
        )


def wait_until_serving(base: str, timeout_s: float = 300) -> None:
    """The web container counts as up as soon as it starts; gunicorn answers a moment later (longer while the
    `sync` one-off gates problems beside it on a busy machine)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(base + "/accounts/login/", timeout=5):
                return
        except OSError:  # refused, or reset by Docker's proxy while nothing listens yet
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


class Browser:
    """Just enough of a browser for Django: cookies and the CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.geturl(), response.read().decode()

    def post(self, path: str, fields: dict) -> tuple[str, str]:
        token = next(c.value for c in self.cookies if c.name == "csrftoken")
        data = urllib.parse.urlencode(fields | {"csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={"Referer": self.base + path})
        with self.opener.open(request, timeout=30) as response:
            return response.geturl(), response.read().decode()


def wait_until_published(browser: Browser, path: str, timeout_s: float = 900) -> str:
    """The problem's page, once the stack's `sync` has gated and published it (a 404 until then)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return browser.get(path)[1]
        except urllib.error.HTTPError as exc:
            if exc.code != 404 or time.monotonic() > deadline:
                raise
            time.sleep(1)


def wait_for_verdict(browser: Browser, url: str, timeout_s: float = 120) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        _, page = browser.get(urllib.parse.urlparse(url).path)
        found = re.search(r'data-verdict="([a-z_]+)"', page)
        if found:
            return found.group(1)
        time.sleep(0.5)
    raise AssertionError(f"no verdict at {url} after {timeout_s} s")


def test_compose_stack_grades_submissions_sent_over_http(stack):
    base, compose, env = stack
    browser = Browser(base)
    browser.get("/accounts/signup/")
    password = uuid.uuid4().hex
    landed, _ = browser.post(
        "/accounts/signup/", {"username": "compose-student", "password1": password, "password2": password}
    )
    assert "/accounts/signup/" not in landed
    problem_page = wait_until_published(browser, "/problems/prepend_class_token/")
    # The rest of the catalogue's gates (two at a time, each in its own sandbox containers) would only take
    # the CPU from this stack's worker and from the rest of the suite: nothing here needs another problem.
    subprocess.run([*compose, "stop", "sync"], env=env, capture_output=True, timeout=120)
    assert "2.2.6" in problem_page  # the NumPy pin students are told about
    browser.get("/")

    correct, _ = browser.post("/submissions/new/prepend_class_token/", {"code": read_solution("prepend_class_token")})
    assert re.search(r"/submissions/\d+/$", correct)
    assert wait_for_verdict(browser, correct) == "accepted"

    wrong, _ = browser.post(
        "/submissions/new/prepend_class_token/", {"code": read_solution("prepend_class_token", "wrong/appended.py")}
    )
    assert wait_for_verdict(browser, wrong) == "wrong_answer"

    worker_logs = subprocess.run(
        [*compose, "logs", "--no-color", "worker"], env=env, capture_output=True, text=True
    ).stdout
    assert "process sandbox" not in worker_logs.lower()  # graded in Docker, not the fallback
    assert "attached streams" not in worker_logs  # and over the sockets, not the slower fallback
    api = docker.from_env().api
    binds = [
        bind
        for info in api.containers(filters={"label": "org.numpy-judge.sandbox"})
        for bind in api.inspect_container(info["Id"])["HostConfig"]["Binds"] or []
    ]
    # The worker's warm containers: each mounts its own directory of the host's /run/judge-sandbox.
    assert any(re.fullmatch(r"/run/judge-sandbox/z-\w+:/run/judge:ro", bind) for bind in binds), binds


def test_compose_redis_refuses_a_client_without_the_password(stack):
    _, compose, env = stack
    without = subprocess.run(
        [*compose, "exec", "-T", "-e", "REDISCLI_AUTH=", "redis", "redis-cli", "ping"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "NOAUTH" in without.stdout + without.stderr
    with_password = subprocess.run(
        [*compose, "exec", "-T", "redis", "redis-cli", "ping"], env=env, capture_output=True, text=True, timeout=60
    )
    assert with_password.stdout.strip() == "PONG"


def service_health(compose: list[str], env: dict) -> dict[str, str]:
    listed = subprocess.run(
        [*compose, "ps", "--format", "json"], env=env, capture_output=True, text=True, timeout=60
    ).stdout.strip()
    rows = json.loads(listed) if listed.startswith("[") else [json.loads(line) for line in listed.splitlines()]
    return {row["Service"]: row.get("Health", "") for row in rows}


def test_compose_services_are_healthy_and_metrics_are_for_the_operator_only(stack):
    base, compose, env = stack
    health = service_health(compose, env)
    assert all(health.get(name) == "healthy" for name in ("web", "worker", "speed", "maintenance")), health

    with urllib.request.urlopen(base + "/readyz", timeout=30) as response:
        assert json.loads(response.read())["ready"] is True  # database, Redis and a grading worker
    # From this host the request reaches gunicorn through Docker's published port, from outside the container.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(base + "/metrics", timeout=30)
    assert refused.value.code == 403
    scrape = "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:8000/metrics').read().decode())"
    inside = subprocess.run(
        [*compose, "exec", "-T", "web", "python3", "-c", scrape], env=env, capture_output=True, text=True, timeout=120
    )
    assert 'judge_submissions_graded_total{kind="submit",verdict="accepted"}' in inside.stdout, inside.stderr[-2000:]


def test_compose_logs_are_json_lines_carrying_the_request_id(stack):
    base, compose, env = stack
    request_id = f"compose-{uuid.uuid4().hex}"
    request = urllib.request.Request(base + "/accounts/login/", headers={"X-Request-ID": request_id})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["X-Request-ID"] == request_id
    deadline = time.monotonic() + 30
    while True:
        logs = subprocess.run(
            [*compose, "logs", "--no-color", "--no-log-prefix", "web"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        lines = [json.loads(line) for line in logs.splitlines() if line.startswith("{")]
        mine = [line for line in lines if line.get("request_id") == request_id]
        if mine or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert [line["message"].split(" ")[:3] for line in mine] == [["GET", "/accounts/login/", "200"]]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)


def test_compose_backs_up_while_serving_and_restores_into_a_fresh_database(stack):
    """The operator's steps of docs/operators/backups.md: `manage.py backup -` in the running web container
    (its image carries pg_dump), then `manage.py restore -` into a new database, which then holds the same
    submissions and verdicts."""
    _, compose, env = stack

    def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
        done = subprocess.run([*compose, *args], env=env, input=stdin, capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
        return done

    def verdicts(database: str) -> str:
        return (
            run(
                "exec",
                "-T",
                "postgres",
                "psql",
                "-U",
                "postgres",
                "-d",
                database,
                "-tAc",
                "SELECT string_agg(id || ':' || verdict, ',' ORDER BY id) FROM submissions_submission",
            )
            .stdout.decode()
            .strip()
        )

    backup = run("exec", "-T", "web", "python3", "manage.py", "backup", "-").stdout
    assert backup[:512].find(b"manifest.json") == 0
    run("exec", "-T", "postgres", "createdb", "-U", "postgres", "judge_restored")
    copy_url = f"postgres://postgres:{env['POSTGRES_PASSWORD']}@postgres:5432/judge_restored"
    restored = run(
        "run",
        "--rm",
        "--no-deps",
        "-T",
        "-e",
        f"DATABASE_URL={copy_url}",
        "migrate",
        "python3",
        "manage.py",
        "restore",
        "-",
        stdin=backup,
    )
    assert b"Restored the postgresql backup" in restored.stdout
    assert verdicts("judge_restored") == verdicts("judge")
    assert "accepted" in verdicts("judge_restored") and "wrong_answer" in verdicts("judge_restored")
