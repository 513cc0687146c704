from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from judge.learning.urls import settings_patterns

urlpatterns = [
    # The admin signs in through the site's login, whose attempts are throttled (judge/accounts/limits.py).
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page's <link rel="icon"> says.
    path("favicon.ico", RedirectView.as_view(url=static("judge/favicon.svg"), permanent=True)),
    path("accounts/", include("judge.accounts.urls")),
    path("problems/", include("judge.learning.urls")),
    path("settings/", include(settings_patterns)),
    path("leaderboard/", include("judge.standings.urls")),
    path("courses/", include("judge.courses.urls")),
    path("lti/", include("judge.lti.urls")),
    path("authoring/", include("judge.authoring.urls")),
    path("api/", include("judge.api.urls")),
    path("", include("judge.regrades.urls")),
    # The staff status page; /healthz, /readyz and /metrics: judge/monitoring/middleware.py.
    path("status/", include("judge.monitoring.urls")),
    path("", include("judge.pages.urls")),
]
