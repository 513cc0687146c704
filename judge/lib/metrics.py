"""The figures each web process counts itself, for ``/metrics`` (``judge/monitoring/metrics.py``).

Everything else on ``/metrics`` is read from the database when it is scraped, so that every process and host
gives the same answer.  HTTP responses are the one thing no table holds: each web process counts its own, and
under gunicorn the processes of one host add theirs up through prometheus-client's multiprocess mode (files
in ``PROMETHEUS_MULTIPROC_DIR``, which deploy/gunicorn.conf.py empties as the server starts).  Several web
hosts are several scrape targets, as Prometheus expects.
"""

from __future__ import annotations

from prometheus_client import Counter

HTTP_RESPONSES = Counter(
    "judge_http_responses",
    "HTTP responses the site's pages and API answered, by status "
    "(this host's web processes; the probes and /metrics are not counted)",
    ["status"],
    registry=None,
)
