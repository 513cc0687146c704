"""A result whose NaN/inf pattern differs is summarised by what differs, not by errors over infinities.

Issue 25: causal_mask returning -1e9 for -inf read "max absolute error , max relative error , of positions
beyond tolerance; first mismatch at []", under a heatmap whose legend ran from 0 to 0.
"""

from __future__ import annotations

import re

import numpy as np
from django.template.loader import render_to_string

from engine.grading import grade
from engine.spec import Case
from judge.display.results import difference_picture, shown_row
from tests.conftest import read_solution
from tests.helpers import npy, one_case, spec

MASK = np.triu(np.full((3, 3), -np.inf), k=1)  # causal_mask(3): -inf at 3 positions
LARGE_NEGATIVE = read_solution("causal_mask", "wrong/large_negative.py").replace("causal_mask", "f")


def graded_mask_row(code: str, sandbox):
    case = Case("t", False, {"length": 3}, npy(MASK))
    report = grade(code, spec(params=["length"], kinds={"length": "int"}, rtol=0.0, atol=0.0), [case], sandbox)
    test = report.tests[0]
    row = shown_row(test.as_dict(), {"t": ({"length": 3}, MASK)})
    return test, row, render_to_string("submissions/_test_row.html", {"row": row, "open": True})


def test_minus_inf_replaced_by_a_large_negative_number_says_so(process_sandbox):
    test, _, _ = graded_mask_row(LARGE_NEGATIVE, process_sandbox)
    assert test.status == "wrong_value"
    assert test.message == "-inf expected at 3 positions, you have -1e9 (first at index (0, 1))"


def test_the_page_summary_and_legend_of_a_pattern_mismatch_say_what_differs(process_sandbox):
    _, row, html = graded_mask_row(LARGE_NEGATIVE, process_sandbox)
    figures = re.sub(r"\s+", " ", re.search(r'<p class="error-figures[^"]*">(.*?)</p>', html, re.DOTALL).group(1))
    assert figures == ('-inf expected at 3 positions, you have -1e9; first at <code class="first-index">[0, 1]</code>')
    assert "max absolute error" not in html and "[]" not in html
    legend = re.search(r'<div class="legend">(.*?)</div>', str(row.picture)).group(1)
    assert "NaN or ±inf on one side only" in legend
    assert '<span class="legend-label">0</span>' not in legend  # no ramp from 0 to 0
    # The three -inf cells are drawn apart; the six that agree are white, and the first mismatch is outlined.
    assert str(row.picture).count('fill="#5b0a91"') == 3 and str(row.picture).count('fill="#ffffff"') == 6
    assert 'class="first-mismatch" x="33"' in str(row.picture)


def test_several_values_where_minus_inf_belongs_are_named(process_sandbox):
    code = "import numpy as np\ndef f(length):\n    return np.triu(np.arange(9.0).reshape(3, 3) * -1, k=1)\n"
    test, _, _ = graded_mask_row(code, process_sandbox)
    assert test.message == "-inf expected at 3 positions, you have -5, -2 and -1 (first at index (0, 1))"


def test_nan_where_a_number_is_expected_names_the_numbers_expected_there(process_sandbox):
    code = "import numpy as np\ndef f(x):\n    y = x * 2\n    y[0, 1] = np.nan\n    return y\n"
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    message = grade(code, spec(), one_case(x, x * 2), process_sandbox).tests[0].message
    assert message == (
        "your result has NaN where the expected value is not, at 1 position where 2 is expected (first at index (0, 1))"
    )


def test_the_same_infinity_on_both_sides_is_no_difference_in_the_picture():
    expected = np.array([[0.5, -np.inf], [0.25, -np.inf]])
    actual = np.array([[0.75, -np.inf], [0.25, -np.inf]])
    picture = str(difference_picture(actual, expected, [0, 0]))
    assert "#5b0a91" not in picture and "on one side only" not in picture
    assert '<span class="legend-label">0.25</span>' in picture
