from django.urls import path

from judge.submissions import views

urlpatterns = [
    path("new/<slug:slug>/", views.submit, name="submit"),
    path("<int:pk>/", views.submission_detail, name="submission-detail"),
]
