from django.urls import path

from judge.pages import problems, stream, submissions

urlpatterns = [
    path("", problems.problem_list, name="problem-list"),
    path("preparing/", problems.problems_preparing, name="problems-preparing"),
    path("problems/<slug:slug>/", problems.problem_detail, name="problem-detail"),
    path("problems/<slug:slug>/speed/", problems.problem_speed, name="problem-speed"),
    path("problems/<slug:slug>/history/", problems.problem_history, name="problem-history"),
    path("submissions/new/<slug:slug>/", submissions.submit, name="submit"),
    path("submissions/<int:pk>/", submissions.submission_detail, name="submission-detail"),
    path("submissions/<int:pk>/status/", submissions.submission_status, name="submission-status"),
    # Under ASGI judge/asgi.py answers this path before Django; this view serves WSGI servers.
    path("submissions/<int:pk>/events/", stream.submission_events, name="submission-events"),
    path("submissions/diff/", submissions.submission_diff, name="submission-diff"),
]
