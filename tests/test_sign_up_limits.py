"""Sign-ups are limited per network address and per hour, with a message saying when to try again."""

from __future__ import annotations

import re

import pytest


@pytest.fixture
def three_an_hour(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": (3, 3600)}


def sign_up(client, username: str, address: str = "10.1.0.1"):
    response = client.post(
        "/accounts/signup/",
        {"username": username, "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"},
        REMOTE_ADDR=address,
    )
    client.logout()
    return response


def test_the_fourth_account_from_one_address_in_an_hour_is_refused(client, db, django_user_model, three_an_hour):
    assert [sign_up(client, f"newbie{n}").status_code for n in range(3)] == [302] * 3
    refused = sign_up(client, "newbie3")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert re.search(
        r"Not signed up: too many accounts made from your network address: at most 3 per hour; "
        r"try again in \d+ (seconds?|minutes)",
        refused.content.decode(),
    )
    assert not django_user_model.objects.filter(username="newbie3").exists()


def test_another_address_can_still_sign_up(client, db, three_an_hour):
    for n in range(4):
        sign_up(client, f"newbie{n}")
    assert sign_up(client, "elsewhere", address="10.1.0.2").status_code == 302


def test_a_refused_form_does_not_use_up_the_allowance(client, db, three_an_hour):
    for _ in range(5):
        response = client.post(
            "/accounts/signup/",
            {"username": "newbie", "password1": "a long pass phrase 7", "password2": "a different phrase"},
            REMOTE_ADDR="10.1.0.1",
        )
        assert response.status_code == 200
    assert sign_up(client, "newbie").status_code == 302


def test_an_ipv6_client_is_counted_by_its_slash_64(client, db, three_an_hour):
    for n in range(3):
        sign_up(client, f"v6user{n}", address=f"2001:db8:1:2::{n + 1}")
    assert sign_up(client, "v6user3", address="2001:db8:1:2:ffff::9").status_code == 429
    assert sign_up(client, "v6other", address="2001:db8:1:3::1").status_code == 302


def test_the_default_allows_ten_an_hour(client, db):
    assert {sign_up(client, f"newbie{n}").status_code for n in range(10)} == {302}
    assert sign_up(client, "newbie10").status_code == 429
