"""The sign-in limits count the account the login finds, so spelling its name another way buys no guesses.

Django's login strips the username and NFKC-normalises it ("ａｄａ " is "ada") before it looks the account up;
the limits count the same account however the name was typed.
"""

from __future__ import annotations

import pytest

WRONG = "not the password"
SPELLINGS = ["ada ", " ada", "ada   ", "\tada\n", "ａｄａ", "ａｄａ "]


@pytest.fixture
def five_per_account(settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "login_account_address": (5, 900),
        "login_account": (5, 900),
        "login_address": (50, 900),
    }


def sign_in(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_of_the_name_signs_in_to_the_same_account(client, student, spelling):
    assert sign_in(client, spelling, "correct horse battery").status_code == 302
    assert "Log out" in client.get("/").content.decode()


def test_other_spellings_of_the_name_get_no_more_guesses(client, student, five_per_account):
    assert [sign_in(client, "ada", WRONG).status_code for _ in range(5)] == [200] * 5
    assert [sign_in(client, spelling, WRONG).status_code for spelling in SPELLINGS] == [429] * len(SPELLINGS)


@pytest.mark.parametrize("spelling", ["ada   ", "ａｄａ"])
def test_a_locked_account_is_not_entered_by_spelling_its_name_another_way(client, student, five_per_account, spelling):
    for _ in range(5):
        sign_in(client, "ada", WRONG)
    refused = sign_in(client, spelling, "correct horse battery")
    assert refused.status_code == 429
    assert "too many sign-in attempts for this account" in refused.content.decode()
    assert "Log out" not in client.get("/").content.decode()


def test_guesses_spread_over_spellings_are_counted_on_the_account(client, student, five_per_account):
    statuses = [sign_in(client, spelling, WRONG).status_code for spelling in ["ada", "ada ", " ada", "ａｄａ", "ada\t"]]
    assert statuses == [200] * 5
    assert sign_in(client, "ada", "correct horse battery").status_code == 429


def test_a_name_that_is_no_account_is_counted_once_however_it_is_spelled(client, db, five_per_account):
    for spelling in ["nobody", "nobody ", " nobody", "ｎｏｂｏｄｙ", "NOBODY"]:
        assert sign_in(client, spelling, WRONG).status_code == 200
    assert sign_in(client, "ｎｏｂｏｄｙ  ", WRONG).status_code == 429
