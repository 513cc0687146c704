"""Usernames are public: guessing an account's password from elsewhere does not lock its owner out, and a browser
that signed in to the account before keeps signing in (still with the password) even when every limit is spent."""

from __future__ import annotations

import pytest
from django.test import Client

from judge.accounts.devices import COOKIE

WRONG = "not the password"
RIGHT = "correct horse battery"
HOME, ATTACKER = "10.0.0.1", "203.0.113.66"


@pytest.fixture
def limits(settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "login_account_address": (5, 900),
        "login_account": (20, 3600),
        "login_address": (50, 900),
    }


def sign_in(client, username: str, password: str, address: str = HOME):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def log_out(client) -> None:
    """As the page's Log out button does: the session ends, the browser keeps its other cookies (the test
    client's logout() would drop them all)."""
    assert client.post("/accounts/logout/").status_code == 302


def signed_in(client) -> bool:
    return "Log out" in client.get("/").content.decode()


def guess_from_many_addresses(guesses: int, username: str = "ada") -> list[int]:
    stranger = Client()
    return [sign_in(stranger, username, WRONG, address=f"198.51.100.{n // 5}").status_code for n in range(guesses)]


def test_guesses_from_another_address_do_not_lock_the_owner_out(client, student, limits):
    stranger = Client()
    assert [sign_in(stranger, "ada", WRONG, address=ATTACKER).status_code for _ in range(8)] == [200] * 5 + [429] * 3
    assert sign_in(client, "ada", RIGHT).status_code == 302 and signed_in(client)


def test_guesses_from_many_addresses_stop_at_the_accounts_backstop(student, limits):
    assert guess_from_many_addresses(25) == [200] * 20 + [429] * 5
    refused = sign_in(Client(), "ada", RIGHT, address="192.0.2.1")
    assert refused.status_code == 429
    assert "too many sign-in attempts for this account: at most 20 per hour" in refused.content.decode()


def test_a_browser_that_signed_in_before_signs_in_while_the_account_is_under_attack(client, student, limits):
    assert sign_in(client, "ada", RIGHT).status_code == 302
    log_out(client)
    guess_from_many_addresses(25)  # the account's backstop is spent
    stranger_here = Client()  # and so is the allowance of the owner's own address
    assert [sign_in(stranger_here, "ada", WRONG).status_code for _ in range(6)] == [429] * 6
    assert sign_in(client, "ada", RIGHT).status_code == 302 and signed_in(client)


def test_a_known_browser_still_needs_the_password_and_gets_few_guesses(client, student, limits):
    assert sign_in(client, "ada", RIGHT).status_code == 302
    log_out(client)
    assert [sign_in(client, "ada", WRONG).status_code for _ in range(7)] == [200] * 5 + [429] * 2
    refused = sign_in(client, "ada", RIGHT)
    assert refused.status_code == 429 and not signed_in(client)
    assert "too many sign-in attempts for this account from this browser" in refused.content.decode()


def test_a_known_browser_is_known_for_its_own_account_only(client, student, second_student, limits):
    assert sign_in(client, "ada", RIGHT).status_code == 302
    log_out(client)
    statuses = [sign_in(client, "grace", WRONG, address=f"198.51.100.{n // 5}").status_code for n in range(21)]
    assert statuses == [200] * 20 + [429]
    assert sign_in(client, "grace", "another horse battery").status_code == 429


def test_a_forged_or_copied_cookie_exempts_nobody(client, student, second_student, limits):
    grace = Client()
    assert sign_in(grace, "grace", "another horse battery").status_code == 302
    genuine = grace.cookies[COOKIE].value
    guess_from_many_addresses(20)
    for cookie in (genuine, genuine[:-2] + "xx", "anything"):  # grace's own, tampered with, made up
        client.cookies[COOKIE] = cookie
        assert sign_in(client, "ada", RIGHT).status_code == 429


def test_the_cookie_cannot_be_read_by_page_scripts(client, student):
    response = sign_in(client, "ada", RIGHT)
    cookie = response.cookies[COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) > 30 * 24 * 3600
