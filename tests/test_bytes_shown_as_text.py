"""Text travels as its bytes in an int64 array (track 6's tokenizer problems); the pages show such arrays as text
too. A manifest names them in ``[display] bytes``: the problem page's examples and a result's inputs, expected and
actual outputs add a ``b'...'`` line, and the difference strip labels each byte with its character."""

from __future__ import annotations

import numpy as np
import pytest
from django.template.loader import render_to_string

from engine.arrays import to_npy
from engine.package import PackageError, load_package
from engine.spec import ProblemSpec
from judge.display.results import bytes_text, format_array, shown_row
from sandbox.protocol import b64
from tests.conftest import PROBLEMS
from tests.helpers import standalone_copy

SYNCED_PROBLEMS = ["bpe_train"]


def as_bytes(text: bytes) -> np.ndarray:
    return np.frombuffer(text, dtype=np.uint8).astype(np.int64)


def test_the_tokenizer_problems_name_their_byte_arrays_and_the_spec_keeps_them():
    assert load_package(PROBLEMS / "bpe_train").problem.shown_as_bytes == ("byte_ids",)
    decode = load_package(PROBLEMS / "bpe_decode").problem
    assert decode.shown_as_bytes == ("output",)
    assert ProblemSpec.from_dict(decode.as_dict()).shown_as_bytes == ("output",)
    assert ProblemSpec.from_dict({**decode.as_dict(), "bytes": []}).shown_as_bytes == ()  # a spec stored before


def manifest_naming(tmp_path, names: str):
    path = standalone_copy("bpe_encode", tmp_path / "problems")
    manifest = path / "problem.toml"
    manifest.write_text(manifest.read_text().replace('bytes = ["byte_ids"]', f"bytes = {names}"))
    return path


def test_bytes_may_name_int_array_parameters_and_an_int64_output(tmp_path):
    assert load_package(manifest_naming(tmp_path, '["output", "byte_ids"]')).problem.shown_as_bytes == (
        "output",
        "byte_ids",
    )


@pytest.mark.parametrize("names", ['["merges_table"]', '["byte_ids", "n_merges"]'])
def test_bytes_that_name_no_integer_array_are_refused_with_the_choices(tmp_path, names):
    with pytest.raises(PackageError) as refused:
        load_package(manifest_naming(tmp_path, names))
    assert "problem.toml: display.bytes" in str(refused.value)
    assert "is not an int_array parameter or an int64 output" in str(refused.value)
    assert "bytes can be shown for byte_ids, merges, output" in str(refused.value)


def test_bytes_read_as_a_bytes_literal_with_everything_unprintable_escaped():
    shown = format_array("byte_ids", as_bytes("café <b>\n".encode()), as_bytes=True)
    assert shown.as_text == r"b'caf\xc3\xa9 <b>\n'"
    assert format_array("byte_ids", as_bytes(b"abc")).as_text == ""  # not named in [display] bytes
    assert bytes_text(np.array([[104, 105], [255, 0]])) == "b'hi'\nb'\\xff\\x00'"
    assert bytes_text(np.array([97, 256])) == "" and bytes_text(np.array([-1])) == ""  # not bytes
    assert bytes_text(np.array([97.0])) == "" and bytes_text(np.zeros(0, dtype=np.int64)) == "b''"


def test_a_failing_decode_shows_its_bytes_as_text_and_a_strip_of_characters():
    expected, actual = as_bytes(b"a<b\xff"), as_bytes(b"a>b\xff")
    test = {
        "name": "example",
        "hidden": False,
        "status": "wrong_value",
        "message": "integer values differ",
        "detail": {"actual_npy": b64(to_npy(actual))},
    }
    inputs = {"token_ids": np.array([97, 256]), "merges": np.array([[60, 98]])}
    row = shown_row(test, {"example": (inputs, expected)}, as_bytes=frozenset({"output"}))
    html = render_to_string("submissions/_test_row.html", {"row": row})
    assert row.expected.as_text == r"b'a<b\xff'" and row.actual.as_text == r"b'a>b\xff'"
    assert "b&#x27;a&lt;b\\xff&#x27;" in html and "<b\\xff" not in html  # escaped, never markup
    assert row.view_title == "Bytes: expected and yours"
    assert "position 1: 62, expected 60 (&gt;, expected &lt;)" in html  # the differing byte, both ways
    assert ">\\xff</text>" in html  # a byte that is not printable, as a bytes literal writes it
    assert all(shown.as_text == "" for shown in row.inputs)  # token ids and merges are not bytes


def test_the_problem_page_shows_the_example_text_beside_its_bytes(client, problems, student):
    client.force_login(student)
    page = client.get("/problems/bpe_train/").content.decode()
    assert '<pre class="as-text"' in page and "b&#x27;aaabdaaabac&#x27;" in page
    assert page.count('class="as-text"') == 2  # the two examples' byte_ids; the merges are ids, not text
