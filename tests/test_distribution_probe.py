"""A probe of kind distribution: many probe cases are draws of a sampler, and each id's share must be its
probability (issue 41: speculative_accept's first token follows the target distribution over many draws).

The probe names its draws by a prefix ending in "*", gives the probability of each id in ``values`` and how far a
share may be from it in ``within``; ``region`` picks the drawn id out of each output, whose length may vary.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from engine.package import PackageError, load_package
from engine.probes import breaks
from engine.spec import ProbeSpec
from tests.conftest import PROBLEMS

PROBE = ProbeSpec(
    name="follows", check="distribution", cases=("draw_*",), message="m", region="[0]", values=(0.25, 0.75), within=0.05
)


def draws(ids: list[int]) -> list[np.ndarray]:
    return [np.array([i] + [0] * (n % 3), dtype=np.int64) for n, i in enumerate(ids)]  # lengths vary


def test_shares_within_the_bound_keep_the_probe():
    assert breaks(PROBE, draws([0] * 5 + [1] * 15), 0.0, 0.0) is None


def test_shares_off_by_more_than_the_bound_break_it():
    assert breaks(PROBE, draws([0] * 10 + [1] * 10), 0.0, 0.0) == ""


def test_an_id_outside_the_distribution_breaks_it():
    assert breaks(PROBE, draws([0] * 5 + [1] * 14 + [2]), 0.0, 0.0) == ""


def test_the_probe_reads_every_case_with_its_prefix_and_no_other():
    names = ["example", *(f"draw_{n:02d}" for n in range(20)), "drawn_elsewhere", "other"]
    assert PROBE.reads(names) == [f"draw_{n:02d}" for n in range(20)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('cases = ["probe_draw_*"]', 'cases = ["probe_draw_00_00"]'), "by one prefix ending in '*'"),
        (("values = [0.1, 0.2, 0.3, 0.4]", "values = [0.1, 0.2, 0.3]"), "summing to 1"),
        (("within = 0.03", "within = 1.5"), "between 0 and 1"),
    ],
)
def test_the_manifest_refuses_a_malformed_distribution_probe(tmp_path, change, message):
    folder = tmp_path / "speculative_accept"
    shutil.copytree(PROBLEMS / "speculative_accept", folder)
    manifest = folder / "problem.toml"
    manifest.write_text(manifest.read_text().replace(*change))
    with pytest.raises(PackageError, match=message):
        load_package(folder)
