"""Statements and theory say what is true (issue 25 §4: errors found by reading them as a mathematician would)."""

from __future__ import annotations

import re

import numpy as np

from tests.conftest import PROBLEMS


def text(slug: str, name: str) -> str:
    return (PROBLEMS / slug / name).read_text()


def test_logit_lens_worked_example_uses_the_variance_of_its_row():
    # LN([1, 2]) with gamma 2: the variance is 0.25, not 1, so the logits are +-3.99992, not +-3.99998.
    row, gamma, w_unembed = np.array([1.0, 2.0]), np.array([2.0, 2.0]), np.array([[1.0, -1.0, 0.0], [-1.0, 1.0, 0.0]])
    normed = gamma * (row - row.mean()) / np.sqrt(row.var() + 1e-5)
    logits = normed @ w_unembed
    shown = re.search(r"# layer 1: .*?-> logits \[([^\]]+)\]", text("logit_lens", "statement.md"), re.DOTALL).group(1)
    assert [float(v) for v in shown.split(",")] == [round(float(v), 5) for v in logits]


def test_the_slowest_sinusoidal_wavelength_depends_on_the_width():
    statement = text("sinusoidal_positional_encoding", "statement.md")
    assert r"2\pi \cdot 10000^{1 - 2/d_{\text{model}}}" in statement
    theory = text("sinusoidal_positional_encoding", "theory.md")
    assert r"At $p = 4095$ and $\omega = 1$" not in theory  # frequency 1 is exact in float32


def test_the_float32_error_the_sinusoidal_theory_quotes_is_the_one_float32_makes():
    omega = 10000.0 ** (-2 / 64)
    angle32 = np.float32(4095) * np.float32(omega)
    angle_error, sine_error = abs(float(angle32) - 4095 * omega), abs(float(np.sin(angle32)) - np.sin(4095 * omega))
    theory = text("sinusoidal_positional_encoding", "theory.md")
    assert "off by about $1.4 \\times 10^{-4}$ radians and its sine by about $10^{-5}$" in theory
    assert 1.3e-4 < angle_error < 1.5e-4 and 5e-6 < sine_error < 2e-5
    assert float(np.float32(1.0)) == 1.0 and float(np.float32(4095)) == 4095.0


def squares(image: np.ndarray, p: int) -> np.ndarray:
    b, h, w, c = image.shape
    return image.reshape(b, h // p, p, w // p, p, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, -1, p * p * c)


def test_vit_single_reshape_strips_are_one_pixel_high_only_when_a_run_fits_in_a_row():
    assert r"strips one pixel high when $p^2 \le W$" in text("vit_forward", "theory.md")
    for (h, w, p), shape in {(4, 4, 2): "strip", (6, 6, 3): "wraps", (4, 2, 2): "square"}.items():
        image = np.arange(h * w, dtype=float).reshape(1, h, w, 1)
        single = image.reshape(1, -1, p * p)
        rows_touched = {int(v) // w for v in single[0, 0]}
        assert (single == squares(image, p)).all() == (shape == "square")
        assert (len(rows_touched) == 1) == (shape == "strip")


def test_feed_forward_theory_names_one_affine_map_not_a_vacuous_rank_bound():
    theory = text("feed_forward", "theory.md")
    assert "of rank at most $D$" not in theory and "one affine map" in theory


def test_merge_heads_theory_does_not_assume_as_many_tokens_as_heads():
    x = np.arange(1 * 4 * 2 * 3).reshape(1, 4, 2, 3)  # H = 4 heads, L = 2 tokens, d = 3
    token_0 = x.reshape(1, 2, 12)[0, 0]
    assert (token_0 == np.concatenate([x[0, 0, 0], x[0, 0, 1], x[0, 1, 0], x[0, 1, 1]])).all()  # head 1 enters
    assert "When $L \\ge H$" in text("merge_heads", "theory.md")


def test_requirements_the_judge_does_not_enforce_read_as_advice():
    for statement in sorted(PROBLEMS.glob("*/statement.md")):
        body = statement.read_text()
        assert not re.search(r"with no Python loop|Return a new `", body), statement.parent.name


def test_the_warm_up_tests_do_not_claim_nanogpts_own_rates():
    # Issue 41: nanoGPT warms up as (it + 1) / (W + 1), not as this problem's s / W.
    statement = text("warmup_cosine_schedule", "statement.md")
    assert "and nanoGPT's GPT-2 run (2000" not in statement
    assert "nanoGPT itself warms up as $(s + 1)/(W + 1)$" in statement
    nanogpt, ours = (np.arange(3) + 1) / (2000 + 1), np.arange(3) / 2000
    assert not np.allclose(nanogpt, ours)


def test_the_logit_lens_says_hugging_faces_last_hidden_state_is_already_normalised():
    assert "already has it" in text("logit_lens", "statement.md")
    assert "already been through the final layer norm" in text("logit_lens", "theory.md")


def test_the_sliding_window_theory_credits_the_w_key_rule_to_hugging_face_not_mistrals_first_code():
    theory = text("sliding_window_mask", "theory.md")
    assert "(this problem, Mistral)" not in theory
    assert "Mistral's first reference code used the second rule: its mask kept $w + 1$ keys" in theory
