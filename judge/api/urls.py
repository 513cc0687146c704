from django.urls import path

from judge.api.api import api

urlpatterns = [path("v1/", api.urls)]
