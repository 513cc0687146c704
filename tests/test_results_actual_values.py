"""On visible tests, a wrong dtype or a modified input shows the student's array values, not only its shape."""

from __future__ import annotations

import pytest

from tests.conftest import read_solution
from tests.test_results_page import SLUG, graded_page, no_enqueue, result_rows  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("no_enqueue")
WRAPPED = "\n\n_right = prepend_class_token\n\n\ndef prepend_class_token(patches, cls_token):\n{body}\n"


def test_a_wrong_dtype_shows_the_students_float32_values(client, problems, student):
    code = read_solution(SLUG) + WRAPPED.format(body="    return _right(patches, cls_token).astype(np.float32)")
    example = result_rows(graded_page(client, student, problems[SLUG], code))["example_1"]
    assert "Wrong dtype" in example
    assert 'your result <span class="muted">(1, 3, 3) float32</span>' in example
    assert "[[[ 0.1, -0.2,  0.3]," in example.split("your result", 1)[1]  # the values, not only the shape


def test_a_modified_input_shows_the_students_result_values(client, problems, student):
    code = read_solution(SLUG) + WRAPPED.format(
        body="    out = _right(patches, cls_token)\n    patches *= 2\n    return out"
    )
    example = result_rows(graded_page(client, student, problems[SLUG], code))["example_1"]
    assert "Input modified" in example and "modified its input `patches`" in example
    assert "[[[ 0.1, -0.2,  0.3]," in example.split("your result", 1)[1]
