"""The frames between judge and sandbox: arrays as raw attachments, hostile frames refused."""

from __future__ import annotations

import io
import json
import struct

import numpy as np
import pytest

from sandbox.protocol import (
    HEADER,
    Pieces,
    ProtocolError,
    decode_body,
    encode_frame,
    plain_npy_header,
    read_frame,
    write_frame,
)


def body_of(text: dict, attachments: bytes = b"") -> bytes:
    encoded = json.dumps(text).encode()
    return struct.pack(">I", len(encoded)) + encoded + attachments


def test_bytes_anywhere_in_a_message_travel_raw_and_come_back_equal():
    message = {"event": "case", "args": {"a": b"\x93NUMPY\x00\xff", "b": b""}, "list": [b"xy", {"c": b"z"}]}
    frame = encode_frame(message)
    assert b"\x93NUMPY\x00\xff" in frame  # not base64
    assert decode_body(frame[HEADER.size :]) == message


def test_an_attachment_in_pieces_arrives_as_one_and_the_frame_is_written_as_encoded():
    array = np.arange(6.0).reshape(2, 3)
    message = {"event": "test", "output": Pieces(b"head:", array.reshape(-1).view(np.uint8).data), "n": 1}
    written = io.BytesIO()
    write_frame(written, message)
    assert written.getvalue() == encode_frame(message)
    received = read_frame(io.BytesIO(written.getvalue()))
    assert received == {"event": "test", "output": b"head:" + array.tobytes(), "n": 1}


def test_a_frame_read_without_copies_gives_views_that_read_as_its_arrays():
    saved = io.BytesIO()
    np.save(saved, np.arange(4.0))
    received = read_frame(io.BytesIO(encode_frame({"args": {"x": saved.getvalue()}})), copy=False)
    view = received["args"]["x"]
    assert isinstance(view, memoryview) and view.readonly and view == saved.getvalue()
    assert plain_npy_header(view) == plain_npy_header(saved.getvalue()) == ((4,), False, "<f8", 128)


@pytest.mark.parametrize("reference", [[0, 99], [3, 2], [-1, 2], [0], "0:2", [True, 2], [0.0, 2]])
def test_a_frame_that_refers_to_bytes_it_does_not_carry_is_refused(reference):
    with pytest.raises(ProtocolError):
        decode_body(body_of({"event": "test", "output": {"$bytes": reference}}, b"ab"))


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\x00\x00",
        struct.pack(">I", 50) + b"{}",
        struct.pack(">I", 2) + b"[]",
        struct.pack(">I", 3) + b"\xff\xfe\xfd",
        struct.pack(">I", 4000) + b"[" * 4000,
    ],
)
def test_malformed_bodies_are_refused(body):
    with pytest.raises(ProtocolError):
        decode_body(body)
