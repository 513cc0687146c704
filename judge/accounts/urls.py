from django.contrib.auth import views as auth_views
from django.urls import path

from judge.accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.SignInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("me/", views.own_profile, name="own-profile"),
    path("users/<path:username>/", views.profile, name="profile"),
    path("privacy/", views.standings_privacy, name="standings-privacy"),
    path("tokens/", views.token_create, name="token-create"),
    path("tokens/<int:pk>/revoke/", views.token_revoke, name="token-revoke"),
]
