from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("judge.accounts.urls")),
    path("problems/", include("judge.learning.urls")),
    path("leaderboard/", include("judge.leaderboard.urls")),
    path("authoring/", include("judge.authoring.urls")),
    path("", include("judge.pages.urls")),
]
