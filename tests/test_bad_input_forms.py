"""Bytes that are not UTF-8 in any form field, and forms over the size limit, are refused with a message the page shows.

The real solve form posts multipart (the page's form has enctype="multipart/form-data"); scripts may post
urlencoded.  Both are covered, and so are the htmx callers, which show only what comes back as HTML to swap in.
"""

from __future__ import annotations

from urllib.parse import quote_from_bytes

import pytest

from judge.learning.models import Draft
from judge.submissions.models import Submission

SLUG = "prepend_class_token"
BAD = {
    "a Latin-1 byte": b"def f(x):\n    return x  # caf\xe9\n",
    "a lone surrogate": b"def f(x):\n    return x  # \xed\xa0\x80\n",
    "a stray 0xff": b"\xff\xfedef f(x): return x\n",
}
HTMX = {"HTTP_HX_REQUEST": "true"}


def multipart(fields: dict[str, bytes]) -> tuple[bytes, str]:
    boundary = "judgeboundary"
    body = (
        b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n"
            for name, value in fields.items()
        )
        + f"--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def urlencoded(fields: dict[str, bytes]) -> tuple[bytes, str]:
    body = "&".join(f"{name}={quote_from_bytes(value)}" for name, value in fields.items()).encode()
    return body, "application/x-www-form-urlencoded"


def post(client, url: str, encode, fields: dict[str, bytes], **headers):
    body, content_type = encode(fields)
    return client.generic("POST", url, body, content_type=content_type, **headers)


@pytest.fixture
def signed_in(client, student):
    client.force_login(student)
    return client


def submit_url() -> str:
    from django.urls import reverse

    return reverse("submit", args=[SLUG])


@pytest.mark.parametrize("encode", [multipart, urlencoded])
def test_bad_bytes_in_the_code_field_get_the_upload_paths_message_and_nothing_is_stored(signed_in, problems, encode):
    from django.core.files.uploadedfile import SimpleUploadedFile

    for what, code in BAD.items():
        uploaded = signed_in.post(
            submit_url(), {"file": SimpleUploadedFile("solution.py", code), "kind": "run"}, **HTMX
        ).content.decode()
        assert "not valid UTF-8" in uploaded, what
        typed = post(signed_in, submit_url(), encode, {"code": code, "kind": b"run"}, **HTMX)
        assert typed.status_code == 200  # htmx swaps it into the result panel
        assert typed.content.decode() == uploaded, what
    assert not Submission.objects.exists()


@pytest.mark.parametrize("encode", [multipart, urlencoded])
def test_bad_bytes_without_htmx_get_a_400_page_naming_the_byte_and_line(signed_in, encode):
    response = post(signed_in, submit_url(), encode, {"code": BAD["a lone surrogate"], "kind": b"submit"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "the code is not valid UTF-8 (byte 0xed on line 2); save the file as UTF-8" in page
    assert "Back to the problems" in page  # the site's page, not a bare response
    assert not Submission.objects.exists()


@pytest.mark.parametrize("encode", [multipart, urlencoded])
def test_a_draft_autosave_with_bad_bytes_is_refused_and_not_stored(signed_in, encode):
    from django.urls import reverse

    response = post(
        signed_in,
        reverse("draft-save", args=[SLUG]),
        encode,
        {"code": BAD["a Latin-1 byte"]},
        HTTP_SEC_FETCH_DEST="empty",
    )
    assert response.status_code == 400
    assert response.json() == {
        "saved": False,
        "error": "the code is not valid UTF-8 (byte 0xe9 on line 2); save the file as UTF-8",
    }
    assert not Draft.objects.exists()


def test_bad_bytes_in_another_field_are_refused_naming_the_field(signed_in):
    response = post(
        signed_in,
        "/accounts/password/",
        multipart,
        {"old_password": b"x", "new_password1": b"caf\xe9 au lait", "new_password2": b"x"},
    )
    assert response.status_code == 400
    assert "the new_password1 field is not valid UTF-8 (byte 0xe9 on line 1)" in response.content.decode()


def test_a_nul_in_a_search_or_a_form_field_is_refused_naming_the_field_not_a_server_error(signed_in, problems):
    """PostgreSQL refuses a NUL in any text: the leaderboard's search with one was a 500 before."""
    search = signed_in.get("/leaderboard/?q=ada%00")
    assert search.status_code == 400 and "the q field contains a NUL character" in search.content.decode()
    signed_up = post(signed_in, "/accounts/signup/", urlencoded, {"username": b"bob\x00", "password1": b"x"})
    assert signed_up.status_code == 400 and "the username field contains a NUL character" in signed_up.content.decode()
    named = signed_in.get("/leaderboard/?q%00=ada")
    assert named.status_code == 400 and "the name of a field contains a NUL character" in named.content.decode()
    typed = post(signed_in, submit_url(), multipart, {"code": b"x = 1\x00\n", "kind": b"run"}, **HTMX)
    assert "the code contains a NUL byte" in typed.content.decode()
    assert not Submission.objects.exists()
    assert signed_in.get("/leaderboard/?q=ada").status_code == 200


def test_valid_utf8_including_a_real_replacement_character_is_accepted(signed_in, problems):
    code = "import numpy as np\n\ndef prepend_class_token(x, cls):  # \ufffd and caf\u00e9\n    return x\n"
    response = post(signed_in, submit_url(), multipart, {"code": code.encode(), "kind": b"run"}, **HTMX)
    assert response.status_code == 200 and "Not submitted" not in response.content.decode()
    assert Submission.objects.get().code == code


@pytest.fixture
def small_submit_limit(settings):
    settings.REQUEST_BODY_LIMITS = {**settings.REQUEST_BODY_LIMITS, "submit": 100_000}


@pytest.mark.parametrize("encode", [multipart, urlencoded])
def test_a_form_over_the_size_limit_shows_the_size_message_in_the_page_for_htmx(signed_in, small_submit_limit, encode):
    code = b"x = 1\n" * 30_000
    response = post(signed_in, submit_url(), encode, {"code": code, "kind": b"run"}, **HTMX)
    fragment = response.content.decode()
    assert response.status_code == 413 and 'role="alert"' in fragment  # site.js swaps a 413 into the panel
    assert "Not submitted: the request is" in fragment and "this page accepts at most 100,000 bytes" in fragment
    assert "the code may be at most 65,536 bytes" in fragment
    assert not Submission.objects.exists()


def test_a_form_over_the_size_limit_without_htmx_gets_the_sites_page(signed_in, small_submit_limit):
    response = post(signed_in, submit_url(), urlencoded, {"code": b"x = 1\n" * 30_000, "kind": b"submit"})
    assert response.status_code == 413
    assert "this page accepts at most 100,000 bytes" in response.content.decode()
    assert "Back to the problems" in response.content.decode()
