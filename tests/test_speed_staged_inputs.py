"""A speed measurement sends its benchmark inputs to the sandbox once: the zygote keeps them in a sealed memfd and
each later child of the measurement maps them read-only.  No child can change what the next one reads, and a
child of any other job never holds them."""

from __future__ import annotations

import hashlib

import pytest

from engine.arrays import from_npy
from engine.grading import job_of
from engine.package import load_package
from engine.speed import _batches, build_benchmark, time_calls
from engine.testset import build_cases
from sandbox.protocol import encode_frame
from tests.conftest import PROBLEMS

pytestmark = pytest.mark.slow

# Looks for the staged inputs in its own address space and file descriptors and says what it found:
# [mappings of the staged memfd, descriptors of it, how many of its attempts to write to them worked].
PROBE = """
import ctypes, os
import numpy as np

def layer_norm(x, gamma, beta, eps):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    mapped = written = 0
    for line in open("/proc/self/maps"):
        if "memfd:staged" in line:
            mapped += 1
            start, end = (int(n, 16) for n in line.split()[0].split("-"))
            if libc.mprotect(start, end - start, 3) == 0:  # PROT_READ | PROT_WRITE
                libc.memset(start, 0, end - start)
                written += 1
    held = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if "memfd:staged" not in os.readlink(f"/proc/self/fd/{fd}"):
                continue
        except OSError:
            continue
        held += 1
        for attempt in (lambda: os.pwrite(int(fd), bytes(4096), 0), lambda: os.truncate(int(fd), 0)):
            try:
                attempt()
                written += 1
            except OSError:
                pass
    return np.array([mapped, held, written], dtype=np.float64)
"""


@pytest.fixture(scope="module")
def bench(process_sandbox):
    package = load_package(PROBLEMS / "layer_norm")
    draws = build_benchmark(package, process_sandbox, [201, 202, 203], build_cases(package, process_sandbox))
    return package, _batches(draws)[0]


def found(timed) -> list[list[float]]:
    return [from_npy(event["output"]).tolist() for event in timed.events]


def test_a_child_cannot_change_the_inputs_the_next_child_of_its_measurement_reads(bench, process_sandbox):
    package, cases = bench
    spec = package.spec()
    time_calls(process_sandbox, package.solution, spec, cases, stage="one")  # sends the inputs, and they are kept
    tampering = found(time_calls(process_sandbox, PROBE, spec, cases, stage="one"))
    mapped, held, written = tampering[0]
    assert mapped == 1 and held <= 1 and written == 0  # it found the inputs and could not write to them
    after = time_calls(process_sandbox, package.solution, spec, cases, stage="one")
    for event, case in zip(after.events, cases, strict=True):
        assert event["outcome"] == "returned"
        assert event["input_hashes"] == {
            name: hashlib.sha256(npy).hexdigest() for name, npy in case.array_inputs().items()
        }


def test_a_child_of_any_other_job_never_holds_a_measurements_inputs(bench, process_sandbox):
    package, cases = bench
    spec = package.spec()
    time_calls(process_sandbox, package.solution, spec, cases, stage="two")
    assert found(time_calls(process_sandbox, PROBE, spec, cases, stage="two"))[0][0] == 1  # the probe finds them
    graded = process_sandbox.run(job_of(PROBE, spec, cases[:1])).events
    assert from_npy(graded[0]["output"]).tolist()[:2] == [0, 0]
    unstaged = time_calls(process_sandbox, PROBE, spec, cases)
    assert found(unstaged)[0][:2] == [0, 0]
    another = time_calls(process_sandbox, PROBE, spec, cases, stage="three")  # another measurement's first child
    assert found(another)[0][:2] == [0, 0]


def test_later_children_of_a_measurement_are_sent_no_inputs_and_give_the_same_results(bench, process_sandbox):
    package, cases = bench
    spec = package.spec()
    sent = time_calls(process_sandbox, package.solution, spec, cases, stage="four")
    channel, sizes = process_sandbox.channel, []
    send = channel.send
    channel.send = lambda message: sizes.append(len(encode_frame(message))) or send(message)
    kept = time_calls(process_sandbox, package.solution, spec, cases, stage="four")
    inputs = sum(len(npy) for case in cases for npy in case.array_inputs().values())
    assert inputs > 1_000_000 and sizes[0] < 64 * 1024
    assert [e["output"] for e in kept.events] == [e["output"] for e in sent.events]
    assert kept.cpu_ms is not None and kept.cpu_ms > 0
