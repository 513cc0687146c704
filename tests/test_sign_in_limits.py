"""Wrong passwords are throttled per account and address, per account, and per network address, with a message
saying when to try again; strangers cannot lock an account's owner or a lab out."""

from __future__ import annotations

import re

import pytest

WRONG = "not the password"


@pytest.fixture
def limits(settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "login_account_address": (5, 900),
        "login_account": (20, 3600),
        "login_address": (8, 900),
    }


def sign_in(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_sixth_attempt_on_an_account_is_refused_even_with_the_right_password(client, student, limits):
    assert [sign_in(client, "ada", WRONG).status_code for _ in range(5)] == [200] * 5
    refused = sign_in(client, "ada", "correct horse battery")
    page = refused.content.decode()
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 900
    assert re.search(
        r"Not signed in: too many sign-in attempts for this account from your network address: "
        r"at most 5 per 15 minutes; "
        r"try again in \d+ (seconds?|minutes)",
        page,
    )
    assert "Log out" not in client.get("/").content.decode()


def test_twenty_wrong_passwords_in_a_row_are_not_all_checked(client, student, limits, monkeypatch):
    from django.contrib.auth.backends import ModelBackend

    checked = []
    real = ModelBackend.authenticate
    monkeypatch.setattr(ModelBackend, "authenticate", lambda *a, **k: checked.append(1) or real(*a, **k))
    statuses = [sign_in(client, "ada", WRONG).status_code for _ in range(20)]
    assert statuses == [200] * 5 + [429] * 15
    assert len(checked) == 5  # a refused attempt costs no password hash


def test_another_account_is_not_held_back_by_one_under_attack(client, student, second_student, limits):
    for _ in range(6):
        sign_in(client, "ada", WRONG, address="10.0.0.1")
    assert sign_in(client, "grace", "another horse battery", address="10.0.0.2").status_code == 302


def test_failures_from_one_address_across_accounts_are_throttled(client, student, second_student, limits):
    for n in range(8):
        assert sign_in(client, f"nobody{n}", WRONG).status_code == 200
    refused = sign_in(client, "ada", "correct horse battery")
    assert refused.status_code == 429
    assert (
        "too many accounts failing to sign in from your network address: at most 8 per 15 minutes"
        in refused.content.decode()
    )
    assert sign_in(client, "ada", "correct horse battery", address="10.0.0.9").status_code == 302


def test_a_class_behind_one_address_signs_in_because_successes_are_not_counted(client, django_user_model, limits):
    for n in range(12):
        django_user_model.objects.create_user(f"pupil{n}", password="a class pass phrase 3")
        assert sign_in(client, f"pupil{n}", "a class pass phrase 3").status_code == 302
        client.logout()


def test_students_mistyping_again_and_again_take_one_place_each_at_their_address(client, django_user_model, limits):
    pupils = [django_user_model.objects.create_user(f"pupil{n}", password="a class pass phrase 3") for n in range(12)]
    for pupil in pupils[:4]:  # 12 failures, on 4 accounts
        assert [sign_in(client, pupil.username, WRONG).status_code for _ in range(3)] == [200] * 3
    for pupil in pupils:
        assert sign_in(client, pupil.username, "a class pass phrase 3").status_code == 302
        client.logout()
    for pupil in pupils[4:8]:  # 8 accounts have now failed here
        sign_in(client, pupil.username, WRONG)
    assert sign_in(client, "pupil4", "a class pass phrase 3").status_code == 302  # counted already: may go on
    client.logout()
    refused = sign_in(client, "pupil9", "a class pass phrase 3")
    assert refused.status_code == 429
    assert "too many accounts failing to sign in from your network address" in refused.content.decode()


def test_the_forwarded_address_counts_only_behind_a_trusted_proxy(client, student, limits, settings):
    for n in range(8):  # each claims another address; without a trusted proxy the claim is ignored
        client.post(
            "/accounts/login/",
            {"username": f"x{n}", "password": WRONG},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
        )
    assert sign_in(client, "ada", "correct horse battery").status_code == 429

    settings.TRUSTED_PROXY_COUNT = 1  # the proxy appends the address it saw: the last entry is the client
    answer = client.post(
        "/accounts/login/",
        {"username": "ada", "password": "correct horse battery"},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="10.0.0.1, 198.51.100.7",
    )
    assert answer.status_code == 302


def test_the_admin_signs_in_through_the_throttled_login(client, author, limits):
    response = client.post("/admin/login/?next=/admin/", {"username": "author", "password": "staff horse battery"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/admin/"
    assert "Log out" not in client.get("/").content.decode()  # no password was checked there
