"""A body over its URL's limit is refused (HTTP 413) before it is read, with the limit in the message.

The bodies here are streams that count what the site reads from them, so "refused without being read" is
measured, not assumed: a 200 MB POST with an honest Content-Length is refused having read nothing, and one
sent without a Content-Length (chunked) is read only up to the limit.
"""

from __future__ import annotations

import io

from django.test import Client

from judge.authoring.services import MAX_ZIP_BYTES
from judge.submissions.models import Submission

MB = 1024 * 1024


class CountingBody(io.RawIOBase):
    """``size`` bytes of form data, made as they are read, counting how many were."""

    def __init__(self, size: int) -> None:
        self.size, self.read_bytes = size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.size - self.read_bytes)
        buffer[:n] = b"a" * n
        self.read_bytes += n
        return n


def post_stream(client: Client, url: str, body: CountingBody, declared: int | None, **headers):
    environ = {"wsgi.input": body, "CONTENT_TYPE": "application/x-www-form-urlencoded", **headers}
    if declared is None:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    else:
        environ["CONTENT_LENGTH"] = str(declared)
    return client.generic("POST", url, b"", **environ)


def test_an_anonymous_200_mb_post_is_refused_from_its_content_length_without_reading_a_byte(db, settings):
    body = CountingBody(200 * MB)
    response = post_stream(Client(enforce_csrf_checks=True), "/accounts/login/", body, declared=200 * MB)
    assert response.status_code == 413  # not CSRF's 403: the body was never read to look for the token
    limit = settings.REQUEST_BODY_DEFAULT_LIMIT
    assert f"the request is 209,715,200 bytes; this page accepts at most {limit:,} bytes" in response.content.decode()
    assert body.read_bytes == 0


def test_a_streamed_body_without_a_content_length_is_read_only_up_to_the_limit(db, settings):
    body = CountingBody(200 * MB)
    response = post_stream(Client(enforce_csrf_checks=True), "/accounts/login/", body, declared=None)
    assert response.status_code == 413
    limit = settings.REQUEST_BODY_DEFAULT_LIMIT
    assert f"the request is over {limit:,} bytes; this page accepts at most {limit:,} bytes" in response.content.decode()
    assert body.read_bytes <= limit + 1


def test_a_streamed_body_within_the_limit_reaches_the_view(client, student):
    form = b"username=ada&password=correct+horse+battery"
    response = client.generic("POST", "/accounts/login/", b"", CONTENT_TYPE="application/x-www-form-urlencoded",
                              HTTP_TRANSFER_ENCODING="chunked", **{"wsgi.input": io.BytesIO(form)})
    assert response.status_code == 302  # signed in: the view read the fields
    assert "ada" in client.get("/").content.decode()


def zip_upload(size: int) -> tuple[bytes, str]:
    boundary = "judgeboundary"
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="package"; filename="p.zip"\r\n'
            "Content-Type: application/zip\r\n\r\n").encode()
    return head + b"\0" * size + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def test_a_zip_just_over_its_limit_is_refused_with_the_limit_in_the_message(client, author, settings):
    limit = settings.REQUEST_BODY_LIMITS["authoring-upload"]
    client.force_login(author)
    body, content_type = zip_upload(limit)
    response = client.generic("POST", "/authoring/upload/", body, content_type=content_type)
    assert response.status_code == 413
    assert f"this page accepts at most {limit:,} bytes" in response.content.decode()


def test_a_zip_of_the_largest_size_the_upload_accepts_is_not_refused_for_its_size(client, author):
    client.force_login(author)
    body, content_type = zip_upload(MAX_ZIP_BYTES)
    response = client.generic("POST", "/authoring/upload/", body, content_type=content_type)
    assert response.status_code == 400  # the view read it and said what is wrong with it, not its size
    assert "p.zip: not a zip file" in response.content.decode()


def test_a_normal_submit_still_works(client, problems, student, no_enqueue):
    client.force_login(student)
    code = "import numpy as np\n\ndef prepend_class_token(x, cls):\n    return x\n" + "# padding\n" * 6000
    response = client.post("/submissions/new/prepend_class_token/", {"code": code, "kind": "submit"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Not submitted" not in response.content.decode()
    assert Submission.objects.get().code == code
