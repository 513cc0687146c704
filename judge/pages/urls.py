from django.urls import path

from judge.problems import views

urlpatterns = [
    path("", views.problem_list, name="problem-list"),
    path("problems/<slug:slug>/", views.problem_detail, name="problem-detail"),
    path("problems/<slug:slug>/history/", views.problem_history, name="problem-history"),
]
