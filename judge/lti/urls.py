from django.urls import path

from judge.lti import views

# /lti/jwks/, /lti/login/ and /lti/launch/ are pasted into LMSs: they never change.
urlpatterns = [
    path("jwks/", views.jwks, name="lti-jwks"),
    path("login/", views.oidc_login, name="lti-login"),
    path("launch/", views.launch, name="lti-launch"),
    path("deep-link/<str:launch_id>/", views.deep_link, name="lti-deep-link"),
    path("platforms/", views.platforms, name="lti-platforms"),
    path("platforms/<int:pk>/", views.platform_detail, name="lti-platform"),
    path("keys/", views.key_action, name="lti-keys"),
    path("courses/<int:course_pk>/", views.course_lti, name="lti-course"),
    path("courses/<int:course_pk>/send-again/", views.send_again, name="lti-send-again"),
    path("courses/<int:course_pk>/roster/", views.sync_roster, name="lti-roster"),
    path("courses/<int:course_pk>/relink/", views.relink, name="lti-relink"),
]
