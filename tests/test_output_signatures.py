"""Output signatures: float noise within the tolerance keeps a mistake's signature; different mistakes differ."""

from __future__ import annotations

import numpy as np
import pytest

from engine.signatures import cluster_id, cluster_key, group, signature

RTOL, ATOL = 1e-7, 1e-9


def expected_output(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((4, 5, 5))


MISTAKES = {
    "transposed": lambda y: np.swapaxes(y, -1, -2).copy(),
    "scaled by 2": lambda y: 2 * y,
    "shifted by one position": lambda y: np.roll(y, 1, axis=1),
    "rounded to 3 decimals": lambda y: np.round(y, 3),
    "a constant added": lambda y: y + 0.5,
    "one row zeroed": lambda y: np.where(np.arange(5)[None, :, None] == 0, 0.0, y),
    "NaN in the first row": lambda y: np.where(np.arange(5)[None, :, None] == 0, np.nan, y),
    "absolute value": np.abs,
}


def sig(actual: np.ndarray, expected: np.ndarray, status: str = "wrong_value") -> str:
    return signature(status, actual=actual, expected=expected, rtol=RTOL, atol=ATOL)


def tolerance_noise(array: np.ndarray, seed: int, fraction: float = 0.5) -> np.ndarray:
    """Noise up to ``fraction`` of the tolerance at every position: what two correct formulas may differ by."""
    rng = np.random.default_rng(seed)
    return array + fraction * (ATOL + RTOL * np.abs(array)) * rng.uniform(-1, 1, array.shape)


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_mistake_keeps_its_signature_under_tolerance_level_noise(mistake):
    expected = expected_output()
    wrong = MISTAKES[mistake](expected)
    signatures = {sig(tolerance_noise(wrong, seed), expected) for seed in range(20)}
    assert signatures == {sig(wrong, expected)}


def test_reordered_sums_give_the_same_signature():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((6, 40)), rng.standard_normal((40, 6))
    expected = a @ b
    wrong_one = 2 * np.einsum("ik,kj->ij", a, b)
    wrong_two = 2 * np.array(
        [[sum(a[i, k] * b[k, j] for k in reversed(range(40))) for j in range(6)] for i in range(6)]
    )
    assert not np.array_equal(wrong_one, wrong_two)
    assert sig(wrong_one, expected) == sig(wrong_two, expected)


def test_different_mistakes_get_different_signatures():
    expected = expected_output()
    signatures = {name: sig(make(expected), expected) for name, make in MISTAKES.items()}
    assert len(set(signatures.values())) == len(signatures), signatures


def test_the_dtype_and_the_shape_are_part_of_the_signature():
    expected = expected_output()
    as_float32 = sig(expected.astype(np.float32), expected, "wrong_dtype")
    longer = sig(np.concatenate([expected, expected[:, :1]], axis=1), expected, "wrong_shape")
    batch = sig(np.concatenate([expected, expected[:1]], axis=0), expected, "wrong_shape")
    assert as_float32.startswith("wrong_dtype:") and len({as_float32, longer, batch}) == 3


def test_the_same_mistake_on_other_data_is_another_signature():
    """A signature belongs to one test: clusters compare students on the same hidden inputs."""
    one, two = expected_output(1), expected_output(2)
    assert sig(2 * one, one) != sig(2 * two, two)


def test_errors_and_types_are_signed_by_what_they_say():
    error = signature("runtime_error", detail="ValueError: all the input arrays must have same number of dimensions")
    other = signature("runtime_error", detail="IndexError: index 5 is out of bounds")
    again = signature("runtime_error", detail="ValueError: all the input arrays must have same number of dimensions")
    assert error != other and error == again
    assert signature("passed") == "" and signature("not_run") == ""


def result(name: str, hidden: bool, status: str, signature_text: str = "", misconception: dict | None = None) -> dict:
    return {
        "name": name,
        "hidden": hidden,
        "status": status,
        "signature": signature_text,
        "misconception": misconception or {},
    }


def test_clusters_group_the_same_failures_and_leave_out_explained_ones():
    transposed = [
        result("example", False, "wrong_value", "wrong_value:v1"),
        result("h1", True, "passed"),
        result("h2", True, "wrong_value", "wrong_value:t2"),
        result("h3", True, "wrong_value", "wrong_value:t3"),
    ]
    scaled = [result("h1", True, "wrong_value", "wrong_value:s1"), result("h2", True, "wrong_value", "wrong_value:s2")]
    named = [result("h1", True, "wrong_shape", "wrong_shape:x", {"name": "Joined along the batch axis"})]
    clusters = group(
        [("ada", transposed), ("grace", scaled), ("alan", transposed), ("edsger", named), ("barbara", transposed)]
    )
    assert list(clusters.values()) == [["ada", "alan", "barbara"], ["grace"]]
    first = next(iter(clusters))
    assert first == (("h2", "wrong_value:t2"), ("h3", "wrong_value:t3"))  # hidden failing tests only
    assert cluster_id(first) == cluster_id(cluster_key(transposed)) != cluster_id(cluster_key(scaled))


def test_results_without_signatures_are_not_clustered():
    old = [{"name": "h1", "hidden": True, "status": "wrong_value", "misconception": {}}]
    assert group([("ada", old)]) == {}


def test_a_submission_killed_for_time_is_keyed_by_that_whichever_test_ran_out():
    timed_out = {"status": "time_limit_exceeded", "signature": "time_limit_exceeded:3ab190cc1597fea3"}
    on_an_example = [
        dict(timed_out, name="example_1", hidden=False),
        {"name": "small", "hidden": True, "status": "not_run", "signature": ""},
    ]
    on_a_hidden_test = [
        {"name": "example_1", "hidden": False, "status": "passed", "signature": ""},
        dict(timed_out, name="large", hidden=True, drawn=True),
    ]
    assert cluster_key(on_an_example) == cluster_key(on_a_hidden_test) == (("the time limit", "time_limit_exceeded"),)
    wrong_first = [
        {"name": "small", "hidden": True, "status": "wrong_value", "signature": "wrong_value:ab"},
        dict(timed_out, name="large", hidden=True),
    ]
    assert cluster_key(wrong_first) == (("small", "wrong_value:ab"), ("the time limit", "time_limit_exceeded"))
