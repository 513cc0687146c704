from django.urls import path

from judge.authoring import views

urlpatterns = [
    path("", views.home, name="authoring-home"),
    path("new/", views.new_problem, name="authoring-new"),
    path("upload/", views.upload, name="authoring-upload"),
    path("audit/", views.audit_log, name="authoring-audit"),
    path("rejudge/", views.rejudge, name="authoring-rejudge-request"),
    path("rejudge/<int:pk>/", views.rejudge_status, name="authoring-rejudge"),
    path("problems/<slug:slug>/", views.problem_overview, name="authoring-problem"),
    path("problems/<slug:slug>/edit/", views.edit_problem, name="authoring-edit"),
    path("problems/<slug:slug>/settings/", views.edit_settings, name="authoring-settings"),
    path("problems/<slug:slug>/gate/", views.run_gate, name="authoring-gate"),
    path("problems/<slug:slug>/gate/<int:pk>/", views.gate_run, name="authoring-gate-run"),
    path("problems/<slug:slug>/preview/", views.preview, name="authoring-preview"),
    path("problems/<slug:slug>/publish/", views.publish, name="authoring-publish"),
    path("problems/<slug:slug>/unpublish/", views.unpublish, name="authoring-unpublish"),
    path("problems/<slug:slug>/download/", views.download, name="authoring-download"),
    path("problems/<slug:slug>/mining/", views.mining, name="authoring-mining"),
    path("problems/<slug:slug>/reports/", views.problem_reports, name="authoring-reports"),
    path("problems/<slug:slug>/mining/<str:cluster>/promote/", views.promote_cluster, name="authoring-promote"),
]
