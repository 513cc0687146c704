"""While the cache holding the counters (Redis) is down, limits on anonymous requests refuse them (sign-up,
sign-in) and limits on signed-in students let them through (Run, Submit)."""

from __future__ import annotations

import pytest
from django.core.cache.backends.base import BaseCache

from judge.submissions.models import Submission
from judge.submissions.services import intake


class DownCache(BaseCache):
    """A cache whose server does not answer, as Django's Redis backend raises then."""

    def __init__(self, location, params) -> None:
        super().__init__(params)

    def _down(self, *args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    add = get = set = touch = delete = incr = has_key = clear = get_many = set_many = delete_many = _down


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.DownCache"}}


def test_signing_in_is_refused_with_a_message_while_the_counters_are_down(client, student, cache_down):
    response = client.post("/accounts/login/", {"username": "ada", "password": "correct horse battery"})
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert (
        "Not signed in: the site cannot count sign-up and sign-in attempts right now, so it accepts none; "
        "try again in a minute"
    ) in response.content.decode()
    assert "Log out" not in client.get("/").content.decode()


def test_signing_up_is_refused_with_a_message_while_the_counters_are_down(client, db, django_user_model, cache_down):
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7"},
    )
    assert response.status_code == 503
    assert "Not signed up: the site cannot count sign-up and sign-in attempts" in response.content.decode()
    assert not django_user_model.objects.filter(username="newbie").exists()


def test_a_signed_in_student_still_submits_while_the_counters_are_down(
    client, problems, student, cache_down, monkeypatch
):
    monkeypatch.setattr(intake, "enqueue", lambda pk, lane=None: None)
    client.force_login(student)
    code = "import numpy as np\n\ndef prepend_class_token(x, cls):\n    return x\n"
    for kind in ("run", "submit"):
        response = client.post(
            "/submissions/new/prepend_class_token/", {"code": code, "kind": kind}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200 and "Not submitted" not in response.content.decode()
    assert Submission.objects.count() == 2
