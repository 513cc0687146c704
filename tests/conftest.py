from __future__ import annotations

import os

os.environ.setdefault("JUDGE_TEST", "1")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = REPO / "problems"
FIRST_THREE = ["prepend_class_token", "add_positional_embedding", "scaled_dot_product_attention"]


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit counters and cached statistics do not leak from one test into the next."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def problems(db, request):
    """Packaged problems, synced into the test database: the first three, or a module's ``SYNCED_PROBLEMS``.

    Every problem of the course goes through its gate in test_reference_and_wrong_solutions.py; the site's
    tests need only a few, and syncing all of them for every test would cost seconds each.
    """
    from judge.authoring.sync import sync_problems
    from judge.problems.models import Problem

    sync_problems(only=getattr(request.module, "SYNCED_PROBLEMS", FIRST_THREE))
    return {p.slug: p for p in Problem.objects.all()}


@pytest.fixture(scope="session")
def process_sandbox():
    from sandbox.backends.process import ProcessSandbox

    sandbox = ProcessSandbox()
    yield sandbox
    sandbox.close()


@pytest.fixture
def student(django_user_model):
    return django_user_model.objects.create_user("ada", password="correct horse battery")


@pytest.fixture
def second_student(django_user_model):
    return django_user_model.objects.create_user("grace", password="another horse battery")


@pytest.fixture
def author(django_user_model):
    return django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)


@pytest.fixture
def no_enqueue(monkeypatch):
    """Submissions stay queued: the test grades them itself by calling the service."""
    from judge.submissions import services

    monkeypatch.setattr(services, "enqueue", lambda pk, lane=None: None)


def read_solution(slug: str, name: str = "solution.py") -> str:
    return (PROBLEMS / slug / name).read_text()


def docker_image_or_skip() -> str:
    """The sandbox image to test with; skips locally without Docker, fails in CI (bin/test.d/docker.sh)."""
    from sandbox.backends import docker as docker_backend

    image = os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest")
    if docker_backend.available(image):
        return image
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs Docker and the sandbox image {image}; see bin/test.d/docker.sh")
    pytest.skip(f"no Docker engine with the image {image} here (run bin/test as root to set it up)")


@pytest.fixture(scope="session")
def docker_image() -> str:
    return docker_image_or_skip()


@pytest.fixture(scope="session")
def docker_sandbox(docker_image):
    """One warm pool for the session, as a worker process keeps it."""
    from sandbox.backends.docker import DockerSandbox

    sandbox = DockerSandbox(image=docker_image, pool_size=2)
    yield sandbox
    sandbox.close()
