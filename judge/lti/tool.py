"""PyLTI1p3 fed from this site's database: the registered platforms and the tool's signing key.

The library checks the protocol (state, the id_token's signature, expiry and audience, the deployment, the
message's claims); this module only answers its questions "which registration?" and "which deployment?", and
remembers why it answered none, so that the refusal page can say so. It also gives the id_token's times the
clock skew the library does not allow (``ToolMessageLaunch``).
"""

from __future__ import annotations

from typing import Any, cast

import jwt
import requests
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException
from pylti1p3.registration import Registration
from pylti1p3.tool_config.abstract import ToolConfAbstract

from judge.lti.keys import signing_key
from judge.lti.models import Platform, issuer_spellings

HTTP_TIMEOUT_S = 10
# How far the LMS's clock and ours may disagree on an id_token's iat, nbf and exp (seconds).
CLOCK_SKEW_S = 60


def registration_of(platform: Platform, issuer: str | None = None) -> Registration:
    """``issuer``: as the platform spelled it in this launch or login, which may differ from the registered one
    by a trailing slash; it is the audience of what the tool signs back (deep linking), so it is the platform's."""
    key = signing_key()
    audience = cast(str, platform.auth_audience or None)  # None: the token endpoint's URL (PyLTI1p3's default)
    return (
        Registration()
        .set_issuer(issuer or platform.issuer)
        .set_client_id(platform.client_id)
        .set_key_set_url(platform.key_set_url)
        .set_auth_login_url(platform.auth_login_url)
        .set_auth_token_url(platform.auth_token_url)
        .set_auth_audience(audience)
        .set_tool_private_key(key.private_pem)
        .set_tool_public_key(key.public_pem)
    )


def find_platform(iss: str, client_id: str | None) -> Platform | None:
    platforms = Platform.objects.filter(issuer__in=issuer_spellings(iss))
    if client_id:
        return platforms.filter(client_id=client_id).first()
    return platforms.first() if platforms.count() == 1 else None


class ToolConf(ToolConfAbstract):
    def __init__(self) -> None:
        super().__init__()
        self.platform: Platform | None = None
        self.refusal = ""

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    # PyLTI1p3 refuses the launch when these return None; its stubs say they never do.
    def find_registration_by_issuer(self, iss: str, *args, **kwargs) -> Registration | None:  # type: ignore[override]
        return self.find_registration_by_params(iss, None)

    def find_registration_by_params(  # type: ignore[override]
        self, iss: str, client_id: str | None, *args, **kwargs
    ) -> Registration | None:
        platform = find_platform(iss, client_id)
        if platform is None:
            self.refusal = "unknown-platform"
            return None
        if not platform.enabled:
            self.refusal = "disabled"
            self.platform = platform
            return None
        self.platform = platform
        return registration_of(platform, iss)

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str | None, *args, **kwargs
    ) -> Deployment | None:
        platform = find_platform(iss, client_id)
        if platform is None or not platform.enabled or deployment_id not in platform.deployment_ids:
            self.refusal = "unknown-deployment"
            return None
        return Deployment().set_deployment_id(deployment_id)


class TimeoutSession(requests.Session):
    """The library's HTTP calls (key sets, tokens, scores, rosters) with a timeout: a platform that does not
    answer must not hold a worker forever."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", HTTP_TIMEOUT_S)
        return super().request(*args, **kwargs)


class ToolMessageLaunch(DjangoMessageLaunch):
    """PyLTI1p3's launch, but an id_token's iat, nbf and exp are read with CLOCK_SKEW_S of leeway: the library
    decodes with PyJWT's default of none, so an LMS whose clock ran 2 s ahead of ours had its launches refused
    as dated in the future. The rest of the check (the key, the algorithm, the message) is the library's."""

    def validate_jwt_signature(self) -> ToolMessageLaunch:
        public_key, algorithm = self.get_public_key()
        try:
            jwt.decode(
                self._get_id_token(),
                public_key,
                algorithms=[algorithm],
                options=cast(Any, self._jwt_verify_options),
                leeway=CLOCK_SKEW_S,
            )
        except jwt.InvalidTokenError as error:
            raise LtiException(f"Can't decode id_token: {error}") from error
        return self
