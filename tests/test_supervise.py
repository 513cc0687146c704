"""bin/run's supervisor: a worker that exits is started again within seconds with a line saying so, one that
keeps dying is given up on with a clear message, and Ctrl-C (SIGINT) or SIGTERM stops it without a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from tests.conftest import REPO

SUPERVISE = str(REPO / "bin" / "supervise")


def supervise(tmp_path: Path, script: str, *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [SUPERVISE, "grading worker", *options, "--", "sh", "-c", script],
        cwd=tmp_path,
        stderr=open(tmp_path / "supervisor.log", "w"),
        text=True,
    )


def lines(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []


def wait_until(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_worker_killed_with_sigkill_is_back_within_seconds_with_a_line_saying_so(tmp_path):
    supervisor = supervise(tmp_path, "echo $$ >> pids; exec sleep 60")
    try:
        assert wait_until(lambda: len(lines(tmp_path / "pids")) == 1, 10)
        killed_at = time.monotonic()
        os.kill(int(lines(tmp_path / "pids")[0]), signal.SIGKILL)
        assert wait_until(lambda: len(lines(tmp_path / "pids")) == 2, 10)
        assert time.monotonic() - killed_at < 5
        assert "grading worker: exited with code -9; starting it again" in (tmp_path / "supervisor.log").read_text()
    finally:
        supervisor.terminate()
        supervisor.wait(30)


def test_a_worker_that_keeps_dying_is_given_up_on_with_a_clear_message(tmp_path):
    supervisor = supervise(tmp_path, "echo x >> starts; exit 3", "--give-up-after", "3", "--within", "60")
    assert supervisor.wait(30) == 1
    assert len(lines(tmp_path / "starts")) == 3
    log = (tmp_path / "supervisor.log").read_text()
    assert "exited 3 times in" in log and "not starting it again" in log and "none is lost" in log


def test_sigterm_stops_the_worker_and_nothing_is_started_again(tmp_path):
    supervisor = supervise(
        tmp_path, "echo $$ >> pids; trap 'echo stopped >> stops; exit 0' TERM; while true; do sleep 0.1; done"
    )
    assert wait_until(lambda: len(lines(tmp_path / "pids")) == 1, 10)
    supervisor.send_signal(signal.SIGINT)  # what Ctrl-C in bin/run's terminal sends
    assert supervisor.wait(30) == 0
    assert lines(tmp_path / "stops") == ["stopped"]  # one SIGTERM, not two
    time.sleep(1.5)
    assert len(lines(tmp_path / "pids")) == 1


def test_a_supervisor_killed_outright_takes_its_worker_with_it(tmp_path):
    """bin/run stopped with SIGKILL (or its terminal closed) left the worker running on, an orphan."""
    supervisor = supervise(tmp_path, "echo $$ >> pids; exec sleep 60")
    assert wait_until(lambda: len(lines(tmp_path / "pids")) == 1, 10)
    worker = int(lines(tmp_path / "pids")[0])
    supervisor.kill()
    supervisor.wait(10)
    assert wait_until(lambda: not alive(worker), 10)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_worker_that_hangs_in_its_shutdown_is_killed_after_the_grace(tmp_path):
    """A Celery worker stuck in its warm shutdown kept bin/run from ever exiting."""
    supervisor = supervise(
        tmp_path, "trap '' TERM; echo $$ >> pids; while true; do sleep 0.1; done", "--stop-grace", "2"
    )
    assert wait_until(lambda: len(lines(tmp_path / "pids")) == 1, 10)
    worker = int(lines(tmp_path / "pids")[0])
    supervisor.send_signal(signal.SIGTERM)
    assert supervisor.wait(30) == 0
    assert not alive(worker)
    assert "grading worker: did not stop within 2 s; killing it." in (tmp_path / "supervisor.log").read_text()


def test_only_the_worker_itself_is_told_to_stop_and_what_it_leaves_is_killed(tmp_path):
    """SIGTERM goes to the worker's main process alone, as `docker stop` sends it: sent to the whole group, it
    killed Celery's pool processes under the main process, and one that held the pool's queue lock left the main
    process waiting for it for ever.  What the main process leaves in its group when it exits is killed."""
    pool = "trap 'echo pool >> terms' TERM; echo $$ > pool; while true; do sleep 0.1; done"
    main = f"sh -c \"{pool}\" & trap 'echo main >> terms; exit 0' TERM; echo $$ >> pids; while true; do sleep 0.1; done"
    supervisor = supervise(tmp_path, main)
    assert wait_until(lambda: len(lines(tmp_path / "pids")) == 1 and lines(tmp_path / "pool"), 10)
    pool_process = int(lines(tmp_path / "pool")[0])
    supervisor.send_signal(signal.SIGINT)
    assert supervisor.wait(30) == 0
    assert lines(tmp_path / "terms") == ["main"]
    assert wait_until(lambda: not alive(pool_process), 10)
