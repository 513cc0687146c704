from __future__ import annotations

import json

import pytest

from judge.tokens.services import create_token


@pytest.fixture
def token(student) -> str:
    return create_token(student, "laptop", ["read", "submit"])[1]


@pytest.fixture
def api(client, token):
    """The test client with the student's token on every request."""

    class Api:
        def get(self, path: str, **kwargs):
            return client.get(f"/api/v1{path}", HTTP_AUTHORIZATION=f"Bearer {token}", **kwargs)

        def post(self, path: str, body, **kwargs):
            data = body if isinstance(body, bytes | str) else json.dumps(body)
            return client.post(
                f"/api/v1{path}",
                data=data,
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {token}",
                **kwargs,
            )

    return Api()


# A real Celery worker grading in the process sandbox, for the tests that drive a live server.
from tests.browser.conftest import grading_worker  # noqa: E402, F401
