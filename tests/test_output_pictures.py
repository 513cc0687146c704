"""The result page draws a failing visible test's output beside the expected one: token ids as a strip with the
differing ids marked, top-k/top-p filtered logits as bars with the kept tokens marked, attention-like outputs
(ALiBi biases, window masks, rollouts) as heatmaps (``judge/display/pictures.py``)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from django.template.loader import render_to_string

from engine.arrays import to_npy
from engine.package import PackageError, load_package
from judge.display.pictures import MASKED_FILL, heatmaps, kept_tokens, token_strip
from judge.display.results import shown_row
from sandbox.protocol import b64
from tests.conftest import PROBLEMS

INF = np.inf


def failing_row(expected: np.ndarray, actual: np.ndarray, inputs: dict, picture: str, status="wrong_value"):
    test = {
        "name": "example",
        "hidden": False,
        "status": status,
        "message": "values differ",
        "detail": {"actual_npy": b64(to_npy(actual))},
    }
    row = shown_row(test, {"example": (inputs, expected)}, picture=picture)
    return row, render_to_string("submissions/_test_row.html", {"row": row})


def test_token_strip_marks_exactly_the_ids_that_differ():
    expected, actual = np.array([[5, 1, 7], [2, 2, 0]]), np.array([[5, 3, 7], [2, 2, 9]])
    svg = str(token_strip(expected, actual))
    assert svg.count('class="token wrong"') == 2
    assert "position 1: 3, expected 1" in svg and "position 2: 9, expected 0" in svg


def test_token_strip_shows_float_ids_of_a_wrong_dtype_as_numbers():
    svg = str(token_strip(np.array([1, 2]), np.array([1.0, np.nan])))
    assert "position 1: nan, expected 2" in svg and svg.count('class="token wrong"') == 1


def test_kept_tokens_marks_a_token_kept_by_mistake_and_one_dropped_by_mistake():
    logits = np.array([[1.0, 3.0, 2.0, 3.0, 0.5]])
    expected = np.array([[-INF, 3.0, -INF, 3.0, -INF]])
    actual = np.array([[-INF, 3.0, 2.0, -INF, -INF]])  # kept token 2, dropped token 3
    svg = str(kept_tokens(logits, expected, actual))
    assert "token 2: logit 2, kept by you, dropped in the expected result" in svg
    assert "token 3: logit 3, kept in the expected result, dropped by you" in svg
    assert len(re.findall(r"token \d: logit [\d.]+, kept</title>", svg)) == 1  # token 1, kept by both


def test_heatmap_draws_masked_positions_dark_for_both_arrays():
    expected = np.array([[0.0, -INF, -INF], [-1.0, 0.0, -INF], [-2.0, -1.0, 0.0]])
    svg = str(heatmaps(expected, expected.T.copy()))
    assert svg.count(f'fill="{MASKED_FILL}"') == 6  # three masked cells in each
    assert "expected" in svg and "yours" in svg


def test_failing_top_k_example_is_drawn_as_bars_on_the_result_page():
    logits = np.array([[1.0, 3.0, 2.0, 3.0, 0.5], [0.0, -1.0, 5.0, 2.0, 2.0]])
    expected = np.where(logits >= np.array([[3.0], [2.0]]), logits, -INF)
    actual = expected.copy()
    actual[1, 4] = -INF
    row, html = failing_row(expected, actual, {"logits": logits, "k": 2}, "kept_tokens")
    assert row.view_title == "Kept tokens: expected and yours"
    assert "Kept tokens: expected and yours" in html and "token 4: logit 2, kept in the expected result" in html


def test_failing_alibi_example_is_drawn_as_heatmaps():
    expected = np.array([[[0.0, -INF], [-0.5, 0.0]], [[0.0, -INF], [-0.25, 0.0]]])
    _row, html = failing_row(expected, np.abs(expected), {"n_heads": 2, "length": 2}, "heatmap")
    assert "The output as a heatmap" in html and "expected [1]" in html and "yours [0]" in html


def test_wrong_token_ids_are_drawn_as_a_strip_without_a_declared_picture():
    row, html = failing_row(np.array([4, 1]), np.array([4, 2]), {"u": np.array([0.5, 0.5])}, "")
    assert row.view_title == "Tokens: expected and yours" and "position 1: 2, expected 1" in html


def test_a_passing_test_and_a_problem_without_a_picture_draw_nothing():
    expected = np.zeros((2, 2))
    row, _ = failing_row(expected, expected + 1, {"x": expected}, "")
    assert row.view is None
    test = {"name": "example", "hidden": False, "status": "passed", "detail": {}}
    assert shown_row(test, {"example": ({}, np.array([1, 2]))}).view is None


@pytest.mark.parametrize(
    ("slug", "picture"),
    [
        ("top_k_logits", "kept_tokens"),
        ("top_p_logits", "kept_tokens"),
        ("alibi_bias", "heatmap"),
        ("sliding_window_mask", "heatmap"),
        ("cls_attention_rollout", "heatmap"),
        ("rms_norm", ""),
    ],
)
def test_problems_declare_their_picture(slug, picture):
    spec = load_package(PROBLEMS / slug).problem
    assert spec.picture == picture and type(spec).from_dict(spec.as_dict()).picture == picture


def test_manifest_refuses_an_unknown_picture(tmp_path):
    folder = tmp_path / "top_k_logits"
    folder.mkdir()
    for file in (PROBLEMS / "top_k_logits").rglob("*"):
        if file.is_file():
            (folder / file.relative_to(PROBLEMS / "top_k_logits")).parent.mkdir(parents=True, exist_ok=True)
            (folder / file.relative_to(PROBLEMS / "top_k_logits")).write_bytes(file.read_bytes())
    manifest = folder / "problem.toml"
    manifest.write_text(manifest.read_text().replace('picture = "kept_tokens"', 'picture = "pie"'))
    with pytest.raises(PackageError, match=r"display.picture must be one of kept_tokens, heatmap, curve, got 'pie'"):
        load_package(folder)
