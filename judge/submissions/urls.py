from django.urls import path

from judge.submissions import views

urlpatterns = [
    path("new/<slug:slug>/", views.submit, name="submit"),
    path("<int:pk>/", views.submission_detail, name="submission-detail"),
    path("<int:pk>/status/", views.submission_status, name="submission-status"),
    path("diff/", views.submission_diff, name="submission-diff"),
]
