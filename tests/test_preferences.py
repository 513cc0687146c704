"""A student's settings: kept with the account and carried by every page's <html>; a value the form does not offer
is refused with its reason and changes nothing; a visitor gets the defaults and keeps theirs in the browser."""

from __future__ import annotations

from django.urls import reverse

from judge.learning.models import Preferences

CHOSEN = {"font_size": "18", "theme": "dark", "keys": "emacs", "tab_width": "2"}


def test_settings_are_kept_and_every_page_carries_them(client, student):
    client.force_login(student)
    answer = client.post(reverse("settings"), CHOSEN)
    assert answer.status_code == 302 and answer["Location"] == "/settings/?saved=1"
    page = client.get(reverse("problem-list")).content.decode()
    assert '<html lang="en" data-theme="dark" data-font-size="18" data-keys="emacs" data-tab-width="2">' in page
    assert "Saved." in client.get(answer["Location"]).content.decode()


def test_a_value_not_offered_is_refused_and_changes_nothing(client, student):
    client.force_login(student)
    client.post(reverse("settings"), CHOSEN)
    answer = client.post(reverse("settings"), CHOSEN | {"font_size": "72", "keys": "nano"})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Select a valid choice. 72 is not one of the available choices." in page
    assert "Select a valid choice. nano is not one of the available choices." in page
    kept = Preferences.objects.get(user=student)
    assert (kept.font_size, kept.keys) == (18, "emacs")


def test_a_visitor_gets_the_defaults_and_keeps_nothing_on_the_server(client, student):
    page = client.get(reverse("settings")).content.decode()
    defaults = 'data-theme="system" data-font-size="14" data-keys="default" data-tab-width="4" data-prefs-local>'
    assert f'<html lang="en" {defaults}' in page
    assert "Kept in this browser" in page and 'id="preferences" data-local' in page
    answer = client.post(reverse("settings"), CHOSEN)
    assert "Not saved: without JavaScript" in answer.content.decode()
    assert not Preferences.objects.exists()


def test_one_students_settings_are_not_anothers(client, student, second_student):
    client.force_login(student)
    client.post(reverse("settings"), CHOSEN)
    client.force_login(second_student)
    assert 'data-theme="system" data-font-size="14"' in client.get(reverse("problem-list")).content.decode()
