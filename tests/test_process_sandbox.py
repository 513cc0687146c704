"""The process backend contains what student code tries to do."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.grading import grade
from sandbox.backends.base import GenerateJob, Job, JobTest
from tests.conftest import REPO
from tests.helpers import npy, one_case, spec
from tests.leftovers import processes_of

X = np.ones((2, 3))


def run(body: str, sandbox, header: str = "import numpy as np\n", **overrides):
    code = f"{header}def f(x):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    return grade(code, spec(**overrides), one_case(X, X * 2), sandbox)


def test_sleeping_past_the_limit_is_time_limit_exceeded(process_sandbox):
    started = time.monotonic()
    report = run("import time\ntime.sleep(30)", process_sandbox, time_limit_s=0.5)
    assert report.verdict == "time_limit_exceeded"
    assert time.monotonic() - started < 10


def test_busy_loop_is_time_limit_exceeded(process_sandbox):
    assert run("while True:\n    pass", process_sandbox, time_limit_s=0.5).verdict == "time_limit_exceeded"


def test_allocating_past_the_limit_is_memory_limit_exceeded(process_sandbox):
    report = run("return np.ones((1024, 1024, 1024))", process_sandbox, memory_mb=128)
    assert report.verdict == "memory_limit_exceeded"


def test_huge_return_value_is_output_limit_exceeded(process_sandbox):
    report = run("return np.zeros((2000, 2000))", process_sandbox, max_output_bytes=1024 * 1024)
    assert report.verdict == "output_limit_exceeded"


def test_exiting_early_is_a_runtime_error_not_a_pass(process_sandbox):
    assert run("import os\nos._exit(0)", process_sandbox).verdict == "runtime_error"
    assert run("raise SystemExit(0)", process_sandbox).verdict == "runtime_error"


def test_fork_bomb_is_contained_and_the_next_job_runs(process_sandbox):
    report = run("import os\nwhile True:\n    os.fork()", process_sandbox, time_limit_s=1.0)
    assert report.verdict != "accepted"
    assert run("return x * 2", process_sandbox).verdict == "accepted"


def student_uid(process_sandbox) -> int:
    """The uid the sandbox runs jobs under (after a first job, so that its zygote is up)."""
    if os.geteuid() != 0:
        pytest.skip("without root children keep the worker's uid and cannot be reaped by uid")
    assert run("return x * 2", process_sandbox).verdict == "accepted"
    return process_sandbox.info["child_uid"]


def test_a_detached_daemon_does_not_survive_the_job(process_sandbox):
    child_uid = student_uid(process_sandbox)
    body = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\n    os._exit(0)\nreturn x * 2"
    assert run(body, process_sandbox).verdict == "accepted"
    assert processes_of(child_uid) == []


def test_student_code_cannot_read_the_project_or_its_solutions(process_sandbox):
    if os.geteuid() != 0:
        pytest.skip(
            "without root the process backend cannot hide files (docs/operators/security.md#the-process-sandbox)"
        )
    body = f"open({str(REPO / 'problems/prepend_class_token/solution.py')!r}).read()\nreturn x * 2"
    report = run(body, process_sandbox)
    assert report.verdict == "runtime_error"
    assert "No such file" in report.tests[0].message


def test_student_code_has_no_network(process_sandbox):
    if os.geteuid() != 0:
        pytest.skip(
            "without root the process backend has no network namespace (docs/operators/security.md#the-process-sandbox)"
        )
    report = run(
        "import socket\nsocket.create_connection(('127.0.0.1', 6379), timeout=2)\nreturn x * 2", process_sandbox
    )
    assert report.verdict == "runtime_error"
    assert "unreachable" in report.tests[0].message.lower()


def test_student_code_sees_no_environment_secrets(process_sandbox):
    os.environ["JUDGE_CANARY_SECRET"] = "s3cret"
    report = run("import os\nassert 'JUDGE_CANARY_SECRET' not in os.environ, 'leak'\nreturn x * 2", process_sandbox)
    assert report.verdict == "accepted"


def test_student_code_has_its_own_environment_and_no_way_to_gain_privileges(process_sandbox):
    # The template clears its environment and sets no_new_privs once; each child inherits both and sets
    # only its HOME and TMPDIR, to its own directory.
    body = (
        "import os\n"
        "assert dict(os.environ) == {'PATH': '/usr/bin:/bin', 'HOME': os.getcwd(), 'TMPDIR': os.getcwd()}, 'env'\n"
        "assert 'NoNewPrivs:\\t1' in open('/proc/self/status').read(), 'privs'\n"
        "return x * 2"
    )
    for _ in range(2):  # a second child, forked from the same template, starts the same way
        report = run(body, process_sandbox)
        assert report.verdict == "accepted", report.tests[0].message


def test_each_job_draws_other_random_numbers(process_sandbox):
    # Every child is forked from the same template; it reseeds ``random`` as it starts (template.fork_alone).
    drawn = {
        run("import random\nprint(random.random())\nreturn x * 2", process_sandbox).tests[0].stdout for _ in range(3)
    }
    assert len(drawn) == 3 and all(drawn)


def test_patching_numpy_does_not_leak_into_the_next_submission(process_sandbox):
    run("np.ndarray.__eq__ = lambda *a: True\nnp.allclose = lambda *a, **k: True\nreturn x", process_sandbox)
    report = run("return x * 2", process_sandbox)
    assert report.verdict == "accepted"
    assert run("return x", process_sandbox).verdict == "wrong_answer"


def test_a_daemon_left_by_a_child_that_died_does_not_survive_the_recycling(process_sandbox):
    child_uid = student_uid(process_sandbox)
    # The child dies mid-job, so the sandbox is recycled; the daemon is in a session of its own.
    body = (
        "import os, signal, time\nif os.fork() == 0:\n    os.setsid()\n    os.closerange(3, 65536)\n"
        "    time.sleep(60)\n    os._exit(0)\n"
        "time.sleep(0.2)\nos.kill(os.getpid(), signal.SIGKILL)"
    )
    assert run(body, process_sandbox, time_limit_s=5.0).verdict == "runtime_error"
    assert processes_of(child_uid) == []


def test_a_child_that_kills_itself_is_a_runtime_error_not_a_memory_verdict(process_sandbox):
    report = run("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", process_sandbox)
    assert report.verdict == "runtime_error"
    assert "SIGKILL" in report.tests[0].message


def test_killed_grandchildren_leave_no_zombies_of_the_student_uid(process_sandbox):
    """Zombies of the student's uid would count against its process limit in every later job."""
    if os.geteuid() != 0:
        pytest.skip("without root children keep the worker's uid")
    assert run("return x * 2", process_sandbox).verdict == "accepted"
    child_uid = process_sandbox.info["child_uid"]
    bomb = "import os, time\nfor _ in range(12):\n    if os.fork() == 0:\n        time.sleep(60)\n        os._exit(0)\nreturn x * 2"
    assert run(bomb, process_sandbox).verdict == "accepted"
    deadline = time.monotonic() + 5
    while processes_of(child_uid, zombies=True) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_of(child_uid, zombies=True) == []


# ---- scalar arguments and probe cases (issue 12), straight through the sandbox's Job


def scalar_job(code: str, args: dict, params=("x", "n", "eps", "flag"), **limits) -> Job:
    return Job(code, "f", list(params), [JobTest("t", args)], limits.get("time_limit_s", 2.0), 256)


def test_scalar_arguments_reach_the_function_as_plain_python_values(process_sandbox):
    code = (
        "import numpy as np\n"
        "def f(x, n, eps, flag):\n"
        "    assert (type(n), type(eps), type(flag)) == (int, float, bool), (type(n), type(eps), type(flag))\n"
        "    return x * n + eps + (10.0 if flag else 0.0)\n"
    )
    run = process_sandbox.run(scalar_job(code, {"x": npy([1.0, 2.0]), "n": 3, "eps": 0.5, "flag": True}))
    (event,) = run.events
    assert event["outcome"] == "returned", event
    assert np.load(io.BytesIO(event["output"])).tolist() == [13.5, 16.5]
    assert list(event["input_hashes"]) == ["x"]  # only the array has a hash


def test_infinite_and_nan_floats_travel_as_floats(process_sandbox):
    code = (
        "import math\nimport numpy as np\n"
        "def f(x, n, eps, flag):\n"
        "    assert math.isinf(n) and math.isnan(eps)\n"
        "    return x\n"
    )
    run = process_sandbox.run(
        scalar_job(code, {"x": npy([1.0]), "n": float("inf"), "eps": float("nan"), "flag": False})
    )
    assert run.events[0]["outcome"] == "returned", run.events[0]


def test_an_argument_that_is_neither_an_array_nor_a_scalar_crashes_the_test_as_malformed(process_sandbox):
    code = "def f(x, n, eps, flag):\n    return x\n"
    run = process_sandbox.run(scalar_job(code, {"x": npy([1.0]), "n": "3", "eps": 0.5, "flag": True}))
    assert run.events[0]["outcome"] == "crashed"
    assert "malformed job" in run.events[0]["detail"]


GENERATOR = """import numpy as np

def generate(rng):
    yield {"name": "plain", "args": {"x": np.ones(2), "n": 3, "eps": 0.5, "flag": True}}
    yield {"name": "numpy scalars", "args": {"x": np.ones(2), "n": np.int64(4), "eps": np.float32(0.25),
                                             "flag": np.bool_(False)}, "probe": True}
"""


def test_a_generator_relays_scalar_arguments_as_python_values_and_the_probe_flag(process_sandbox):
    run = process_sandbox.run(GenerateJob(code=GENERATOR, seed=1, params=["x", "n", "eps", "flag"], time_limit_s=10.0))
    cases = [e for e in run.events if e["event"] == "case"]
    assert run.events[-1]["event"] == "generated", run.events[-1]
    assert [c["args"]["n"] for c in cases] == [3, 4]
    assert [type(c["args"][name]) for c in cases for name in ("n", "eps", "flag")] == [int, float, bool] * 2
    assert cases[1]["args"]["eps"] == 0.25 and cases[1]["args"]["flag"] is False
    assert isinstance(cases[0]["args"]["x"], bytes)
    assert "probe" not in cases[0] and cases[1]["probe"] is True


def test_a_generator_argument_that_is_not_an_array_or_a_scalar_is_a_clear_error(process_sandbox):
    code = "def generate(rng):\n    yield {'name': 'c', 'args': {'x': 'text'}}\n"
    run = process_sandbox.run(GenerateJob(code=code, seed=1, params=["x"], time_limit_s=10.0))
    error = run.events[-1]
    assert error["event"] == "generate_error"
    message = error["error"]["message"]
    assert "must be a numeric ndarray, got str (a scalar argument must be an int, float or bool)" in message


# ---- a time budget per submission (issue 10): the job stops at its first timeout


def numbered_tests(count: int) -> list[JobTest]:
    return [JobTest(f"t{i}", {"x": npy([float(i)])}) for i in range(count)]


def test_an_infinite_loop_stops_at_its_first_test_after_one_limit(process_sandbox):
    code = "def f(x):\n    while True:\n        pass\n"
    run = process_sandbox.run(Job(code, "f", ["x"], numbered_tests(5), 1.0, 256))
    assert [(e["name"], e["outcome"], e["detail"]) for e in run.events] == [("t0", "timeout", "test time limit")]
    assert 1000 <= run.elapsed_ms < 1700  # one limit, not five


def test_slow_tests_stop_when_the_submission_time_budget_runs_out(process_sandbox):
    code = "import time\ndef f(x):\n    time.sleep(0.4)\n    return x\n"
    run = process_sandbox.run(Job(code, "f", ["x"], numbered_tests(5), 1.0, 256, budget_s=1.0))
    assert [e["outcome"] for e in run.events] == ["returned", "returned", "timeout"]
    assert run.events[-1]["name"] == "t2"
    assert run.events[-1]["detail"] == "submission time budget"
    assert 150 <= run.events[-1]["time_ms"] <= 400  # what was left of the budget: 1.0 - 2 x 0.4 s
    assert run.elapsed_ms < 1700


def test_a_budget_that_is_not_used_up_changes_nothing(process_sandbox):
    code = "def f(x):\n    return x * 2\n"
    run = process_sandbox.run(Job(code, "f", ["x"], numbered_tests(5), 1.0, 256, budget_s=1.0))
    assert [e["outcome"] for e in run.events] == ["returned"] * 5


def test_the_job_deadline_is_bounded_by_the_budget():
    job = Job("", "f", ["x"], numbered_tests(13), 2.0, 256)
    assert job.deadline_s() == 14 * 3.0 + 10.0
    assert Job("", "f", ["x"], numbered_tests(13), 2.0, 256, budget_s=4.0).deadline_s() == 4.0 + 2.0 + 10.0


NICED_JOB = """
from sandbox.backends.process import ProcessSandbox
from tests.test_process_sandbox import run
with ProcessSandbox() as sandbox:
    print(run('return x * 2 if "nice 19" in open("/proc/self/autogroup").read() else x', sandbox).verdict)
"""


@pytest.mark.skipif(
    not os.path.exists("/proc/self/autogroup")
    or Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() != "1",
    reason="no autogroups on this kernel",
)
def test_a_child_of_a_niced_worker_keeps_its_nice_in_its_own_session():
    """Each child is a session, so an autogroup, of its own; there the CPU is shared between groups first and
    a nice value counts only inside one: a speed measurement's children would take an equal share beside
    grading although the speed worker runs at nice 19."""
    done = subprocess.run(
        ["nice", "-n", "19", sys.executable, "-c", NICED_JOB],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ | {"PYTHONPATH": str(REPO)},
    )
    assert done.stdout.strip().splitlines()[-1:] == ["accepted"], done.stderr[-2000:]
