"""`docker compose` refuses to start a stack it was not given secrets for: no key or password falls back."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.docker
SECRETS = {"SECRET_KEY": "k" * 50, "POSTGRES_PASSWORD": "a-db-password", "REDIS_PASSWORD": "a-redis-password"}


def compose_config(env: dict[str, str]) -> subprocess.CompletedProcess:
    inherited = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "DOCKER_HOST", "TMPDIR")}
    try:
        return subprocess.run(
            ["docker", "compose", "-f", str(REPO / "docker-compose.yml"), "config"],
            env=inherited | env,
            cwd="/",
            capture_output=True,
            text=True,
            timeout=60,
        )
    except FileNotFoundError:
        return subprocess.CompletedProcess([], 127, "", "no docker CLI")


@pytest.fixture(scope="module")
def compose_cli():
    if compose_config(SECRETS).returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs `docker compose`; see bin/test.d/docker.sh")
        pytest.skip("no `docker compose` here (run bin/test as root to set it up)")


@pytest.mark.parametrize("missing", sorted(SECRETS))
def test_compose_refuses_to_start_without_each_secret(compose_cli, missing):
    done = compose_config({k: v for k, v in SECRETS.items() if k != missing})
    assert done.returncode != 0
    assert f"set {missing}" in done.stderr


def test_compose_passes_the_redis_password_to_the_server_and_into_the_urls(compose_cli):
    done = compose_config(SECRETS)
    assert done.returncode == 0, done.stderr
    assert "redis://:a-redis-password@redis:6379/0" in done.stdout
    assert "protected-mode" not in done.stdout
    command_line = next(line for line in done.stdout.splitlines() if "requirepass" in line)
    assert "a-redis-password" not in command_line  # `ps` would show it there; it goes through a file
