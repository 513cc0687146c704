"""A username the signup form would refuse (made in the admin or a shell) breaks no page, for them or for others."""

from __future__ import annotations

from django.urls import reverse

from tests.students import graded

ODD_NAMES = ["ada/lovelace", "trailing/", "what?", "50%", "#1", "a b"]


def test_a_student_with_an_odd_username_can_open_their_pages_and_profile(client, problems, django_user_model):
    for name in ODD_NAMES:
        person = django_user_model.objects.create_user(name, password="a long pass phrase 1")
        graded(person, problems["prepend_class_token"])
        client.force_login(person)
        for url in ["/", "/leaderboard/", reverse("problem-detail", args=[problems["prepend_class_token"].slug])]:
            assert client.get(url).status_code == 200, (name, url)
        page = client.get("/").content.decode()
        profile_url = reverse("profile", args=[name])
        assert f'href="{profile_url}"' in page
        profile = client.get(profile_url)
        assert profile.status_code == 200 and problems["prepend_class_token"].title in profile.content.decode()


def test_the_leaderboard_shows_odd_usernames_to_everyone_with_working_links(
    client, problems, student, django_user_model
):
    for name in ODD_NAMES:
        graded(django_user_model.objects.create_user(name), problems["prepend_class_token"])
    for viewer, name in [(None, n) for n in ODD_NAMES] + [(student, n) for n in ODD_NAMES]:
        if viewer:
            client.force_login(viewer)
        board = client.get("/leaderboard/")
        assert board.status_code == 200
        profile_url = reverse("profile", args=[name])
        assert f'href="{profile_url}"' in board.content.decode()
        assert client.get(profile_url).status_code == 200
