"""What an operator looks at: ``/metrics``, ``/healthz`` and ``/readyz``, and the staff status page
(docs/operators/monitoring.md).  It reads every app's rows, so it sits above them all; nothing imports it but
the URLs and the settings' middleware list."""
