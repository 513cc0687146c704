"""bin/run as a newcomer runs it, under a small class with faults injected (bench/soak.py for a minute): an empty
and a truncated broker message planted twice each, the grading worker killed with SIGKILL once.  The worker is
never ended by the broker, comes back by itself, and every submission gets one final verdict."""

from __future__ import annotations

import pytest

from bench.soak import soak

pytestmark = pytest.mark.slow


def test_bin_run_keeps_grading_through_damaged_messages_and_a_killed_worker(tmp_path):
    result = soak("prepend_class_token", tmp_path / "var", minutes=1.0, students=4, kills=1, threads=True)
    assert result.broker_deaths == 0
    assert result.damaged == result.faults.planted == 8
    assert result.restarts == 1
    assert result.faults.not_back == 0 and result.faults.kills[0] < 30  # bench/soak.py reports the 10 s target
    assert result.submissions >= 8 and result.still_open == 0
    assert result.counted_twice == 0
    assert not result.tally.lost and not result.tally.errors
