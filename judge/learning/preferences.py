"""A student's settings for the site and its editor: font size, theme, key bindings, tab width.

Kept in the database, so they follow the student to every device they sign in on; read once per page (one row by
primary key).  A visitor who is not signed in gets the defaults from the server and keeps their own choices in
the browser's localStorage (judge/static/judge/prefs.js reads them before the page is drawn).
"""

from __future__ import annotations

from django import forms

from judge.learning.models import Preferences

FIELDS = ("font_size", "theme", "keys", "tab_width")


def defaults() -> dict:
    unsaved = Preferences()  # the model's own defaults
    return {name: getattr(unsaved, name) for name in FIELDS}


def preferences_of(user) -> dict:
    """The settings a page is drawn with: the student's own, else the defaults."""
    if not user.is_authenticated:
        return defaults()
    row = Preferences.objects.filter(user=user).values(*FIELDS).first()
    return row or defaults()


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = FIELDS
        labels = {
            "font_size": "Editor font size",
            "theme": "Theme",
            "keys": "Key bindings in the editor",
            "tab_width": "Tab width",
        }
        widgets = {"theme": forms.RadioSelect}


def save_preferences(user, data) -> PreferencesForm:
    """Validate and keep the posted settings; the form carries the errors when a value is not one offered."""
    form = PreferencesForm(data, instance=Preferences.objects.filter(user=user).first() or Preferences(user=user))
    if form.is_valid():
        form.save()
    return form
