from django.urls import path

from judge.regrades import views

urlpatterns = [
    path("submissions/<int:pk>/regrade/", views.ask, name="regrade-ask"),
    path("regrades/<int:request_pk>/follow-up/", views.follow_up, name="regrade-follow-up"),
    path("courses/<int:pk>/regrades/", views.queue, name="course-regrades"),
    path("courses/<int:pk>/regrades/<int:request_pk>/", views.detail, name="regrade-detail"),
]
