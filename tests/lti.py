"""Shared pieces of the LTI tests: a running test platform registered with the site, and a launch through
the Django test client that goes through the real OIDC login (the tool's redirect, then the signed id_token).

The platform is reached over plain HTTP unless a test asks for both schemes with ``OVER_HTTP_AND_HTTPS``: over
HTTPS the site has the settings production has behind its TLS proxy, and PyLTI1p3 behaves differently there (its
cookies are SameSite=None; Secure, and a launch needs the session cookie the login set)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from judge.lti import keys
from judge.lti.models import Platform
from tests.lti_platform import LtiPlatform

OVER_HTTP_AND_HTTPS = pytest.mark.parametrize("lms", ["http", "https"], indirect=True)


def as_in_production(settings) -> None:
    """judge/settings.py without JUDGE_PLAIN_HTTP, framed by an LMS (LTI_FRAME_ANCESTORS set)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.SESSION_COOKIE_SAMESITE = settings.CSRF_COOKIE_SAMESITE = "None"


@pytest.fixture
def lms(request, db, settings):
    """The platform, registered here as an administrator would; the tool's key set as it is now (the platform's
    server thread cannot see this test's uncommitted rows, so it is given what /lti/jwks/ would answer)."""
    scheme = getattr(request, "param", "http")
    if scheme == "https":
        as_in_production(settings)
    platform = LtiPlatform(f"{scheme}://testserver")
    row = platform.registration()
    Platform.objects.create(
        name=row["name"],
        issuer=row["issuer"],
        client_id=row["client_id"],
        deployment_ids=[row["deployment_ids_text"]],
        key_set_url=row["key_set_url"],
        auth_login_url=row["auth_login_url"],
        auth_token_url=row["auth_token_url"],
    )
    key_set = keys.key_set()
    platform.tool_keys = lambda: key_set
    yield platform
    platform.close()


def begin_login(client, lms: LtiPlatform, person, link=None, deep_linking: bool = False) -> tuple[str, str]:
    """The LMS's login initiation; returns the (state, nonce) the tool sent to the platform."""
    url = lms.login_url(person, link, deep_linking)
    check = client.get(url, secure=lms.secure)  # the cookie check page, whose script goes on below
    assert check.status_code == 200 and b"lti1p3-new-tab-link" in check.content, check.content.decode()[:500]
    answer = client.get(url + "&lti1p3_new_window=1", secure=lms.secure)
    assert answer.status_code == 302, answer.content.decode()[:500]
    query = parse_qs(urlsplit(answer["Location"]).query)
    assert answer["Location"].startswith(lms.url("/auth?"))
    return query["state"][0], query["nonce"][0]


def launch(client, lms: LtiPlatform, person, link=None, deep_linking: bool = False, key=None, state=None, **changes):
    """A whole launch; ``changes`` alter the id_token's claims, ``key`` signs it, ``state`` replaces the state."""
    real_state, nonce = begin_login(client, lms, person, link, deep_linking)
    nonce = changes.pop("nonce", nonce)
    token = lms.id_token(person, nonce, link, deep_linking, key=key, **changes)
    return client.post("/lti/launch/", {"id_token": token, "state": state or real_state}, secure=lms.secure)
