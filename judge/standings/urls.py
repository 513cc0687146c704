from django.urls import path

from judge.standings import views

urlpatterns = [
    path("", views.standings, name="leaderboard"),
    path("problems/", views.problem_firsts, name="leaderboard-problems"),
]
