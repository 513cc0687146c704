from django.urls import path

from judge.monitoring import views

# /healthz, /readyz and /metrics are answered by judge.monitoring.middleware, before the host check.
urlpatterns = [
    path("", views.status_page, name="operations-status"),
]
