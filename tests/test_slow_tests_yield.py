"""A test still running after half its time limit (most often an infinite loop) yields the CPU: the rest of its
job runs at an eighth of the CPU weight, so on a busy machine other students' tests are not starved by it.
The student code below reads its own weight as the kernel sees it and returns it as its output."""

from __future__ import annotations

import numpy as np
import pytest

from sandbox.backends.base import Job, JobTest
from tests.helpers import npy

# Spins until its weight changes or ``spin`` seconds have passed, then returns the weight it has (limit 8 s: the
# zygote lowers it after 4 s, which leaves a busy machine 3.5 s to do it; the spin usually ends at 4 s).
WAIT_FOR_CHANGE = """
import os, time
import numpy as np

def f(x):
    start, first = time.monotonic(), weight()
    while time.monotonic() - start < {spin} and weight() == first:
        pass
    return np.array([float(weight())])

def weight():
    {read}
"""
# A read only: os.nice(0) also sets the value it read, and when the zygote renices the child between the two, the
# child's setting it back is refused (EPERM: only root may raise a priority).
NICE = "return os.getpriority(os.PRIO_PROCESS, 0)"
SHARES = "return int(open('/sys/fs/cgroup/cpu/cpu.shares').read())"


def job(read: str, spin: float) -> Job:
    code = WAIT_FOR_CHANGE.format(spin=spin, read=read)
    return Job(code, "f", ["x"], [JobTest("t", {"x": npy([1.0])})], time_limit_s=8.0, memory_mb=256)


def returned(run) -> float:
    event = run.events[-1]
    assert event["outcome"] == "returned", event
    return float(np.load(__import__("io").BytesIO(event["output"]))[0])


def test_a_fast_test_keeps_its_weight_in_the_process_sandbox(process_sandbox):
    run = process_sandbox.run(job(NICE, spin=0.0))
    assert not run.slowed
    assert returned(run) < 9


def test_a_test_past_half_its_limit_runs_on_niced_in_the_process_sandbox(process_sandbox):
    before = returned(process_sandbox.run(job(NICE, spin=0.0)))
    run = process_sandbox.run(job(NICE, spin=7.5))
    assert (run.slowed, returned(run)) == (True, min(19, before + 9))


@pytest.mark.docker
def test_a_slow_test_runs_on_at_an_eighth_of_its_containers_weight_which_comes_back_after(docker_sandbox):
    run = docker_sandbox.run(job(SHARES, spin=7.5))
    assert (run.slowed, returned(run)) == (True, 128)
    docker_sandbox.ready_containers()  # the pool restores the weight before the container takes a job again
    for _ in range(2):  # whichever container the next jobs take
        assert returned(docker_sandbox.run(job(SHARES, spin=0.0))) == 1024
        docker_sandbox.ready_containers()
