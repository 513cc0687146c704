"""What a student sees after grading: per-test checks, arrays, pictures, tracebacks."""

from __future__ import annotations

import re

import numpy as np
import pytest

from judge.display.results import difference_picture
from judge.grading import services as grading
from judge.submissions.models import Kind
from judge.submissions.services import intake
from tests.conftest import read_solution

SLUG = "prepend_class_token"


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(intake, "enqueue", lambda pk: None)


def graded_page(client, student, problem, code: str, kind: str = Kind.SUBMIT) -> str:
    submission = intake.submit_solution(student, problem, code, kind)
    assert grading.grade_submission(submission.pk)
    client.force_login(student)
    return client.get(f"/submissions/{submission.pk}/status/").content.decode()


def result_rows(page: str) -> dict[str, str]:
    return dict(re.findall(r'<li class="test[^"]*" data-test="([a-z_0-9]+)"[^>]*>(.*?)</li>', page, re.DOTALL))


def test_a_wrong_value_shows_a_heatmap_per_image_with_the_first_mismatch(client, problems, student, no_enqueue):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/appended.py"))
    rows = result_rows(page)
    example = rows["example_2"]  # two images, so two panels
    assert example.count('<svg class="heatmap"') == 1
    assert re.findall(r"<text[^>]*>(.*?)</text>", example) == ["[0, :, :]", "[1, :, :]"]
    assert example.count('class="first-mismatch"') == 1
    assert "max absolute error <strong>4</strong>" in example and "max relative error <strong>3</strong>" in example
    assert '<code class="first-index">[0, 0, 0]</code>' in example


def test_visible_tests_show_inputs_expected_and_the_students_result(client, problems, student, no_enqueue):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/appended.py"))
    example = result_rows(page)["example_1"]
    assert "<code>patches</code>" in example and "<code>cls_token</code>" in example
    assert "expected" in example and "your result" in example
    assert "[[[ 0.1, -0.2,  0.3]," in example  # expected starts with the token
    assert "[[[ 1. ,  2. ,  3. ]," in example  # the appended result starts with a patch


def test_hidden_tests_name_the_failed_check_and_show_no_data(client, problems, student, no_enqueue):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/appended.py"))
    # The hidden tests failed the same way, so they are one entry that names them (random_small among them).
    hidden = next(row for name, row in result_rows(page).items() if 'badge">hidden' in row)
    assert "random_small" in hidden
    assert re.search(r'class="check failed" data-check="values"', hidden)
    assert "<pre" not in hidden and "<svg" not in hidden and "your result" not in hidden


def test_a_wrong_shape_fails_the_shape_check_after_type_and_dtype_pass(client, problems, student, no_enqueue):
    page = graded_page(client, student, problems[SLUG], read_solution(SLUG, "wrong/batch_axis.py"))
    example = result_rows(page)["example_1"]
    states = dict(re.findall(r'class="check (\w+)" data-check="([^"]+)"', example))
    assert re.findall(r'class="check (\w+)" data-check="([^"]+)"', example) == [
        ("passed", "ndarray"),
        ("passed", "float64"),
        ("failed", "shape"),
        ("skipped", "values"),
        ("skipped", "inputs unchanged"),
    ], states
    assert "expected shape (1, 3, 3), got (2, 2, 3)" in example


def test_a_runtime_error_shows_the_traceback_with_editor_line_numbers(client, problems, student, no_enqueue):
    code = read_solution(SLUG, "wrong/no_tile.py")
    line = next(i for i, text in enumerate(code.splitlines(), 1) if "concatenate" in text)
    page = graded_page(client, student, problems[SLUG], code, Kind.RUN)
    assert f"line {line}, in prepend_class_token" in page
    assert f'data-error-line="{line}"' in page
    assert "site-packages" not in page and "numpy/" not in page  # trimmed to the student's code


def test_the_difference_picture_of_a_3d_array_has_one_panel_per_leading_index():
    expected = np.zeros((3, 4, 5))
    actual = expected.copy()
    actual[2, 1, 3] = 0.5
    svg = str(difference_picture(actual, expected, [2, 1, 3]))
    assert re.findall(r"<text[^>]*>(.*?)</text>", svg) == ["[0, :, :]", "[1, :, :]", "[2, :, :]"]
    outline = re.search(r'class="first-mismatch" x="(\d+)" y="(\d+)"', svg)
    cells = re.findall(r'<rect x="(\d+)" y="(\d+)" width="(\d+)" height="\d+" fill="(#[0-9a-f]+)">', svg)
    darkest = [c for c in cells if c[3] != "#ffffff"]
    assert len(darkest) == 1  # only the wrong cell is coloured
    x, y, _, _ = darkest[0]
    assert (int(outline.group(1)), int(outline.group(2))) == (int(x) - 1, int(y) - 1)


def test_a_large_2d_difference_is_pooled_into_a_readable_picture():
    expected = np.zeros((196, 64))
    actual = expected.copy()
    actual[150, 60] = 3.0
    svg = str(difference_picture(actual, expected, [150, 60]))
    assert svg.count("<rect") <= 48 * 48 + 3
    assert "max per 5×2 block" in svg


def test_a_syntax_error_points_the_editor_at_its_line(client, problems, student, no_enqueue):
    page = graded_page(
        client, student, problems[SLUG], "import numpy as np\n\ndef prepend_class_token(p, c)\n    return p\n"
    )
    assert 'data-verdict="compile_error"' in page and 'data-error-line="3"' in page
