from django.urls import path

from judge.courses import views

urlpatterns = [
    path("", views.course_list, name="course-list"),
    path("new/", views.course_create, name="course-create"),
    path("join/", views.join, name="course-join"),
    path("join/<str:code>/", views.join, name="course-join-link"),
    path("join/<str:code>/sign-up/", views.join_sign_up, name="course-join-sign-up"),
    path("time-zone/", views.time_zone, name="course-time-zone"),
    path("<int:pk>/", views.course_home, name="course-home"),
    path("<int:pk>/settings/", views.course_settings, name="course-settings"),
    path("<int:pk>/people/", views.people, name="course-people"),
    path("<int:pk>/leaderboard/", views.course_leaderboard, name="course-leaderboard"),
    path("<int:pk>/gradebook/", views.gradebook_page, name="course-gradebook"),
    path("<int:pk>/gradebook.csv", views.gradebook_download, name="course-gradebook-csv"),
    path("<int:pk>/assignments/new/", views.assignment_edit, name="assignment-new"),
    path("<int:pk>/assignments/<int:assignment_pk>/", views.assignment_detail, name="assignment-detail"),
    path(
        "<int:pk>/assignments/<int:assignment_pk>/as-student/",
        views.assignment_as_student,
        name="assignment-as-student",
    ),
    path(
        "<int:pk>/assignments/<int:assignment_pk>/submissions.zip",
        views.assignment_download,
        name="assignment-download",
    ),
    path("<int:pk>/assignments/<int:assignment_pk>/edit/", views.assignment_edit, name="assignment-edit"),
    path("<int:pk>/assignments/<int:assignment_pk>/overrides/", views.overrides, name="assignment-overrides"),
    path("<int:pk>/assignments/<int:assignment_pk>/progress/", views.progress, name="assignment-progress"),
    path("<int:pk>/assignments/<int:assignment_pk>/insights/", views.assignment_insights, name="assignment-insights"),
    path("<int:pk>/assignments/<int:assignment_pk>/similarity/", views.similarity, name="assignment-similarity"),
    path("<int:pk>/assignments/<int:assignment_pk>/release/", views.release_grades, name="assignment-release"),
    path("<int:pk>/assignments/<int:assignment_pk>/rubric/", views.rubric, name="assignment-rubric"),
]
