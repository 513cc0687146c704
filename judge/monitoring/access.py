"""Who may read ``/metrics``: a client on one of the operator's networks, or one that brings the token."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from judge.accounts.limits import client_ip


def may_scrape(request: HttpRequest) -> bool:
    """``Authorization: Bearer <METRICS_TOKEN>``, or a client address (as ``TRUSTED_PROXY_COUNT`` sees it) inside
    ``METRICS_NETWORKS`` (default: loopback only)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if (
        settings.METRICS_TOKEN
        and scheme.lower() == "bearer"
        and hmac.compare_digest(token.strip().encode(), settings.METRICS_TOKEN.encode())
    ):
        return True
    try:
        address = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in settings.METRICS_NETWORKS)
