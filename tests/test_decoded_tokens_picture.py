"""The decoded-tokens picture: a visible decoding test draws the expected ids and the student's, token by token.

Greedy decoding returns each prompt followed by its generated ids, int64. On a visible test the result page draws
both sequences in two rows (the prompt grey, a generated id green where it matches and red where it does not, the
first difference outlined), passed or not: a passed integer test keeps the student's ids, which equal the
expected ones exactly. A hidden test keeps no ids and gets no picture.
"""

from __future__ import annotations

import re

import numpy as np
from django.template.loader import render_to_string

from engine.arrays import to_npy
from engine.checks import Tolerance, check_test
from engine.events import TestEvent
from judge.display.results import shown_row
from sandbox.protocol import Outcome

PROMPT = np.array([[2, 6, 2, 1, 2], [6, 4, 5, 5, 6]])
EXPECTED = np.array([[2, 6, 2, 1, 2, 6, 2, 1, 2, 6, 2, 1], [6, 4, 5, 5, 6, 4, 5, 5, 6, 4, 5, 5]])
INPUTS = {"prompt_ids": PROMPT, "params": {"w_q": np.zeros((1, 2, 2))}, "n_heads": 2, "n_new": 7}


def graded_row(actual: np.ndarray, hidden: bool = False, inputs: dict = INPUTS, expected=EXPECTED):
    event = TestEvent(Outcome.RETURNED, 3.0, "", output=to_npy(actual), dtype=actual.dtype.str, shape=actual.shape)
    result = check_test(
        event,
        name="example_2_trained_model",
        hidden=hidden,
        expected=expected,
        input_hashes={},
        tolerance=Tolerance(0.0, 0.0),
        max_output_bytes=1 << 20,
    )
    row = shown_row(result.as_dict(), {} if hidden else {"example_2_trained_model": (inputs, expected)})
    return result, row, render_to_string("submissions/_test_row.html", {"row": row})


def cells(html: str, row: str) -> list[tuple[str, str, str]]:
    """(position, fill, id) of every drawn token of one row ("expected" or "yours"), in order."""
    return re.findall(
        rf'<g class="token {row}[^"]*" data-position="(\d+)"><rect [^>]*fill="(#\w+)">.*?'
        r"<text [^>]*>(\d+)</text></g>",
        html,
    )


def test_a_passed_decoding_test_draws_the_students_ids_beside_the_expected_ones():
    result, _row, html = graded_row(EXPECTED.copy())
    assert result.status == "passed" and "actual_npy" in result.detail
    assert html.count('<svg class="decoded-tokens"') == 1 and "Decoded tokens: expected and yours" in html
    yours, expected = cells(html, "yours"), cells(html, "expected")
    assert [int(i) for _, _, i in yours[:12]] == EXPECTED[0].tolist()  # the first sequence, then the second
    assert [int(i) for _, _, i in expected[12:]] == EXPECTED[1].tolist()
    assert {fill for p, fill, _ in yours if int(p) < 5} == {"#e6e6e6"}  # the prompt, grey
    assert {fill for p, fill, _ in yours if int(p) >= 5} == {"#d3f2d3"}  # every generated id matches, green
    assert html.count("all generated ids match") == 2 and 'class="first-difference"' not in html


def test_a_decode_that_leaves_the_pattern_is_outlined_at_its_first_different_token():
    actual = EXPECTED.copy()
    actual[1, 8:] = [3, 3, 3, 3]
    result, row, html = graded_row(actual)
    assert result.status == "wrong_value"
    reds = [int(p) for p, fill, _ in cells(html, "yours") if fill == "#f7c3bd"]
    assert reds == [8, 9, 10, 11]  # the second sequence from its 9th id on
    assert "sequence 0: all generated ids match" in html and "sequence 1: first differs at token 8" in html
    assert html.count('class="first-difference"') == 1
    assert row.view is None and "Tokens: expected and yours" not in html  # not drawn twice as a generic strip


def test_float_ids_are_drawn_as_the_whole_numbers_they_hold():
    result, _row, html = graded_row(EXPECTED.astype(np.float64))
    assert result.status == "wrong_dtype"
    assert [int(i) for _, _, i in cells(html, "yours")[:12]] == EXPECTED[0].tolist()


def test_a_hidden_decoding_test_keeps_no_ids_and_draws_nothing():
    actual = EXPECTED.copy()
    actual[0, 6] = 7
    for sent in (EXPECTED.copy(), actual):
        result, row, html = graded_row(sent, hidden=True)
        assert "actual_npy" not in result.detail and row.tokens is None
        assert "<svg" not in html and not re.search(r"\b[2-7], [2-7]\b", html)


def test_integer_outputs_that_do_not_continue_an_input_get_no_tokens_picture():
    indices = np.array([[3, 0, 1], [2, 2, 0]])
    result, row, html = graded_row(indices, inputs={"x": np.ones((2, 3))}, expected=indices)
    assert result.status == "passed" and row.tokens is None and "decoded-tokens" not in html
