"""A malformed staff zip gets a 400 naming the file and what is wrong with it, and changes nothing."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

from judge.authoring.models import AuditEntry
from judge.problems.models import Problem
from tests.helpers import standalone_files

SLUG = "prepend_class_token"
STATEMENT = "# A problem\n\n" + "Words that compress well. " * 40 + "\n"


@pytest.fixture
def author(django_user_model, client):
    user = django_user_model.objects.create_user("author", password="staff horse battery", is_staff=True)
    client.force_login(user)
    return user


def good_zip() -> bytearray:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{SLUG}/statement.md", STATEMENT)  # first: the entry the tests damage
        for name, text in standalone_files(SLUG).items():
            if name != "statement.md":
                archive.writestr(f"{SLUG}/{name}", text)
    return bytearray(buffer.getvalue())


def patched(**fields: int) -> bytes:
    """The good zip with header fields overwritten in both the local header and the central directory."""
    data = good_zip()
    local, central = data.index(b"PK\x03\x04"), data.index(b"PK\x01\x02")
    offsets = {"flags": (6, 8, "<H"), "method": (8, 10, "<H"), "crc": (14, 16, "<I"), "size": (22, 24, "<I")}
    for field, value in fields.items():
        in_local, in_central, fmt = offsets[field]
        struct.pack_into(fmt, data, local + in_local, value)
        struct.pack_into(fmt, data, central + in_central, value)
    return bytes(data)


def corrupt_deflate() -> bytes:
    data = good_zip()
    start = data.index(b"PK\x03\x04")
    name_len, extra_len = struct.unpack_from("<HH", data, start + 26)
    body = start + 30 + name_len + extra_len
    data[body] = 0xFF  # a final block of the reserved type 3: not deflate at all
    return bytes(data)


def upload(client, data: bytes):
    buffer = io.BytesIO(data)
    buffer.name = "package.zip"
    return client.post("/authoring/upload/", {"package": buffer})


MALFORMED = {
    "an encrypted entry": (lambda: patched(flags=0x1), "encrypted; upload a zip made without a password"),
    "compression method 99": (lambda: patched(method=99), "compressed with method 99, which the site cannot read"),
    "a corrupted deflate stream": (corrupt_deflate, "damaged; its compressed data cannot be unpacked"),
    "a lying uncompressed size": (lambda: patched(size=len(STATEMENT) - 7), "damaged (Bad CRC-32"),
    "a wrong checksum": (lambda: patched(crc=0x12345678), "damaged (Bad CRC-32"),
}


@pytest.mark.parametrize("what", MALFORMED)
def test_a_malformed_zip_is_refused_with_a_precise_message_and_changes_nothing(client, author, what):
    make, message = MALFORMED[what]
    response = upload(client, make())
    assert response.status_code == 400
    assert f"{SLUG}/statement.md: {message}" in response.content.decode()
    assert not Problem.objects.exists() and not AuditEntry.objects.exists()


def test_the_good_zip_those_are_made_from_is_accepted(client, author):
    response = upload(client, bytes(good_zip()))
    assert response.status_code == 302
    assert Problem.objects.get(slug=SLUG).draft_files["statement.md"] == STATEMENT
