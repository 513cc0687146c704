"""``/healthz``, ``/readyz`` and ``/metrics``, answered before any other middleware.

A probe reaches the web process on its own port, as ``http://127.0.0.1:8000`` or ``http://web:8000``: Django's
host check (``ALLOWED_HOSTS`` names the public host) and the HTTPS redirect (the TLS proxy is not in between)
would refuse it or send it elsewhere.  These three answer that probe and nothing else; they set no cookie, read no
session and show no page, and /metrics decides itself who may read it (``access.may_scrape``).  They are not
counted in the HTTP figures or logged as requests: a probe every few seconds would drown both.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from judge.monitoring import views

PROBES: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": views.healthz,
    "/readyz": views.readyz,
    "/metrics": views.metrics_page,
}


class OperatorEndpointsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path_info.rstrip("/")) if request.method in ("GET", "HEAD") else None
        if probe is not None:
            return probe(request)
        return self.get_response(request)
