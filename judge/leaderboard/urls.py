from django.urls import path

from judge.leaderboard import views

urlpatterns = [
    path("", views.standings, name="leaderboard"),
]
