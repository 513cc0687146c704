"""Schemathesis generates requests from the API's own OpenAPI document, valid and invalid: no answer is a server
error, and every answer matches the schema the document gives for its status. Bounded: a few examples per operation, no shrinking."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from judge.tokens.services import create_token

pytestmark = pytest.mark.heavy

EXAMPLES_PER_OPERATION = 12  # about 30 s for the nine operations on a loaded machine


@pytest.fixture
def api_schema(db, problems):
    """The site's WSGI app in this process and this test's transaction: like Django's test client, requests
    must not close the database connection as they finish."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from judge.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    loaded = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)
    # Valid requests, and requests that break the schema (wrong types, unknown values): neither may get a 5xx.
    loaded.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    yield loaded
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_every_answer_matches_the_schema(case, student, no_enqueue):
    token = getattr(student, "_fuzz_token", None) or create_token(student, "fuzz", ["read", "submit"])[1]
    student._fuzz_token = token
    case.call_and_validate(
        headers={"Authorization": f"Bearer {token}"},
        checks=[not_a_server_error, response_schema_conformance, status_code_conformance],
    )
