from django.urls import path

from judge.learning import views

urlpatterns = [
    path("<slug:slug>/draft/", views.draft_save, name="draft-save"),
    path("<slug:slug>/draft/reset/", views.draft_reset, name="draft-reset"),
    path("<slug:slug>/hints/next/", views.hint_reveal, name="hint-reveal"),
    path("<slug:slug>/note/", views.note_save, name="note-save"),
    path("<slug:slug>/bookmark/", views.bookmark_set, name="bookmark-set"),
]

# Mounted at /settings/ (judge/urls.py): the student's settings are not about one problem.
settings_patterns = [
    path("", views.settings_page, name="settings"),
]
