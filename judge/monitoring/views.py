"""The operator's endpoints and the staff status page: each parses, checks access, asks a service, answers."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST

from judge.monitoring import health, metrics
from judge.monitoring.access import may_scrape
from judge.monitoring.status import operations_status

REFUSED = (
    "/metrics is served to the operator's networks (METRICS_NETWORKS) or with the token "
    "(Authorization: Bearer METRICS_TOKEN)\n"
)


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok\n", content_type="text/plain")


def readyz(request: HttpRequest) -> HttpResponse:
    checks = health.readiness()
    ready = all(check.ok for check in checks)
    body = {"ready": ready, "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in checks}}
    return JsonResponse(body, status=200 if ready else 503)


def metrics_page(request: HttpRequest) -> HttpResponse:
    if not may_scrape(request):
        return HttpResponse(REFUSED, status=403, content_type="text/plain")
    return HttpResponse(metrics.scrape(), content_type=CONTENT_TYPE_LATEST)


@never_cache
def status_page(request: HttpRequest) -> HttpResponse:
    """Staff only: an anonymous visitor is sent to log in, anyone else gets 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied("Only staff can see the site's status.")
    return render(request, "monitoring/status.html", {"status": operations_status()})
