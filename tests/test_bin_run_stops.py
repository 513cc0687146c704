"""bin/run stops, and leaves nothing running, when it is told to: SIGTERM to its own process (as a process manager
or `kill` sends it), even while its workers are still starting.  Before, bash held the signal until the server in
the foreground ended, so nothing stopped; and a worker stopped while it started could wait for ever on a lock one
of its pool processes held when the signal killed it, so bin/run never exited and the worker graded on."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from bench.embedded_latency import Embedded, processes_of

pytestmark = pytest.mark.slow


def until(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.mark.parametrize("after_s", [0.0, 8.0], ids=["as-it-starts", "once-started"])
def test_sigterm_to_bin_run_stops_everything_it_started(tmp_path, after_s):
    site = Embedded("prepend_class_token", tmp_path / "var")
    try:
        site.start()  # the site answers; the workers may still be starting
        assert until(lambda: len(processes_of(site.var)) >= 7, 60)  # server, 3 supervisors, 3 workers at least
        time.sleep(after_s)
        os.kill(site.process.pid, signal.SIGTERM)
        assert site.process.wait(60) != 0
        assert until(lambda: not processes_of(site.var), 15), [
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120] for pid in processes_of(site.var)
        ]
    finally:
        site.stop()
