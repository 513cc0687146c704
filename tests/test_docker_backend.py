"""The Docker backend: a warm pool of hardened containers behind the Sandbox interface."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

from engine.grading import grade
from sandbox.backends.base import Job, JobTest, SandboxError
from sandbox.backends.docker import HOST_LABEL, LABEL, OWNER_LABEL, DockerSandbox, remove_orphans
from tests.conftest import PROBLEMS, REPO, read_solution
from tests.helpers import grade_code, npy, one_case, spec

pytestmark = pytest.mark.docker


def job(body: str, time_limit_s: float = 2.0) -> Job:
    code = "import numpy as np\ndef f(x):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    return Job(code, "f", ["x"], [JobTest("t", {"x": npy([1.0, 2.0])})], time_limit_s, 256)


def test_correct_solution_is_accepted_in_a_container(docker_sandbox):
    report = grade_code(read_solution("prepend_class_token"), "prepend_class_token", docker_sandbox)
    assert report.verdict == "accepted"
    assert report.sandbox["backend"] == "docker"
    assert report.sandbox["numpy"] == "2.2.6"


def test_jobs_one_at_a_time_reuse_the_same_warm_container(docker_sandbox):
    containers = set()
    for _ in range(3):
        containers.add(docker_sandbox.run(job("return x * 2")).info["container"])
        docker_sandbox.ready_containers()  # as a worker's database work does, lets the container settle
    assert len(containers) == 1


def test_student_code_runs_as_another_uid_without_network_or_writable_root(docker_sandbox):
    probe = (
        "import os, socket\n"
        "try:\n    open('/opt/sandbox/sandbox/zygote/__main__.py', 'a')\n    ro = 'writable'\n"
        "except OSError as exc:\n    ro = type(exc).__name__\n"
        "try:\n    socket.socket(socket.AF_INET).connect(('1.1.1.1', 53))\n    net = 'connected'\n"
        "except OSError as exc:\n    net = type(exc).__name__\n"
        "raise RuntimeError(f'uid={os.getuid()} root={ro} net={net} ifaces={sorted(os.listdir(\"/sys/class/net\"))}')"
    )
    error = docker_sandbox.run(job(probe)).events[0]["error"]["message"]
    uid = int(error.split()[0].removeprefix("uid="))
    assert uid >= 200_000
    assert "root=PermissionError" in error or "root=OSError" in error
    assert "net=PermissionError" in error  # the seccomp profile refuses AF_INET sockets
    assert "ifaces=['lo']" in error


def test_containers_carry_every_hardening_flag(docker_sandbox):
    docker_sandbox.wait_until_full()
    container = docker_sandbox.ready_containers()[0]
    info = docker_sandbox.client.api.inspect_container(container.id)
    host = info["HostConfig"]
    assert host["NetworkMode"] == "none"
    assert host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"]
    assert sorted(host["CapAdd"]) == ["CHOWN", "DAC_OVERRIDE", "KILL", "SETGID", "SETUID"]
    assert "no-new-privileges" in host["SecurityOpt"]
    assert any(opt.startswith("seccomp=") and "SCMP_ACT_ERRNO" in opt for opt in host["SecurityOpt"])
    assert host["PidsLimit"] == 64
    assert host["Memory"] == host["MemorySwap"] == 1024 * 1024 * 1024
    assert host["NanoCpus"] == 1_000_000_000
    assert host["Tmpfs"] == {"/tmp": "size=16m,mode=0711"}
    assert host["Binds"] == [f"{container.socket_dir}:/run/judge:ro"]  # nothing else of the host
    assert info["Config"]["Labels"][LABEL] == "1"


def test_the_socket_directory_is_private_and_empty_once_the_zygote_connected(docker_sandbox):
    docker_sandbox.wait_until_full()
    container = docker_sandbox.ready_containers()[0]
    assert stat.S_IMODE(os.stat(container.socket_dir).st_mode) == 0o700
    assert os.listdir(container.socket_dir) == []  # nothing left to connect to
    probe = (
        "import os, socket\ntry:\n    os.listdir('/run/judge')\n    seen = 'listed'\n"
        "except OSError as exc:\n    seen = type(exc).__name__\n"
        "s = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect('/run/judge/z.sock')\n    reach = 'connected'\n"
        "except OSError as exc:\n    reach = type(exc).__name__\n"
        "raise RuntimeError(f'{seen} {reach}')"
    )
    error = docker_sandbox.run(job(probe)).events[0]["error"]["message"]
    assert error == "PermissionError PermissionError"


def test_a_socket_directory_the_engine_cannot_use_falls_back_to_attach(docker_image, tmp_path, monkeypatch, caplog):
    from sandbox.backends import docker as backend

    def never_connects(self, listener, container_id):
        raise backend.NoConnection("the sandbox container did not connect in time")

    monkeypatch.setattr(backend.DockerSandbox, "_accept", never_connects)
    with (
        caplog.at_level(logging.WARNING),
        DockerSandbox(image=docker_image, pool_size=1, socket_dir=tmp_path / "s") as sandbox,
    ):
        result = sandbox.run(job("return x * 2"))
        assert sandbox.socket_dir is None
    assert result.events[0]["outcome"] == "returned"
    assert "using their attached streams" in caplog.text
    assert list((tmp_path / "s").iterdir()) == []  # the failed attempt's directory is gone


def test_socket_directories_no_container_uses_are_removed(docker_sandbox, tmp_path):
    stale, fresh = tmp_path / "z-stale000", tmp_path / "z-fresh000"
    stale.mkdir()
    fresh.mkdir()
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    remove_orphans(docker_sandbox.client, tmp_path)
    assert not stale.exists()
    assert fresh.exists()  # a worker may be about to start its container


def test_the_attach_transport_grades_too(docker_image):
    with DockerSandbox(image=docker_image, pool_size=1, socket_dir=None) as sandbox:
        result = sandbox.run(job("return x * 2"))
        assert sandbox.ready_containers()[0].socket_dir is None
    assert result.events[0]["outcome"] == "returned"


def test_a_container_that_dies_mid_job_fails_fast_and_the_next_job_runs(docker_image):
    with DockerSandbox(image=docker_image, pool_size=1) as sandbox:
        sandbox.wait_until_full()
        victim = sandbox.ready_containers()[0].id
        threading.Timer(1.0, sandbox.client.api.kill, args=(victim,)).start()
        started = time.monotonic()
        with pytest.raises(SandboxError, match=r"closed its output|lost"):
            sandbox.run(job("import time\ntime.sleep(1.5)\nreturn x", time_limit_s=20))
        assert time.monotonic() - started < 8
        result = sandbox.run(job("return x * 2"))
        assert result.events[0]["outcome"] == "returned"
        assert result.info["container"] != victim[:12]


def test_a_container_is_recycled_after_an_anomaly(docker_image, caplog):
    # The job returns only once the daemon has left its session: on a loaded machine it could otherwise still be
    # in the job's process group when the job ends, and be killed with it, leaving nothing to recycle for.
    daemon = (
        "import os, time\nr, w = os.pipe()\nif os.fork() == 0:\n    os.setsid()\n    os.write(w, b'1')\n"
        "    time.sleep(60)\nos.read(r, 1)\nreturn x"
    )
    with DockerSandbox(image=docker_image, pool_size=1) as sandbox, caplog.at_level(logging.INFO):
        first = sandbox.run(job(daemon))
        assert first.events[0]["outcome"] == "returned"  # the results come before the cleanup
        second = sandbox.run(job("return x"))
        assert second.info["container"] != first.info["container"]
        assert second.anomaly is None
    assert f"recycling sandbox container {first.info['container']}: a process outlived the job" in caplog.text


def test_a_container_is_recycled_after_a_timeout(docker_image):
    with DockerSandbox(image=docker_image, pool_size=1) as sandbox:
        slow = sandbox.run(job("while True:\n    pass", time_limit_s=0.5))
        assert slow.events[0]["outcome"] == "timeout"
        assert sandbox.run(job("return x")).info["container"] != slow.info["container"]


def test_an_infinite_loop_in_a_container_stops_at_its_first_test(docker_sandbox):
    code = "def f(x):\n    while True:\n        pass\n"
    tests = [JobTest(f"t{i}", {"x": npy([float(i)])}) for i in range(5)]
    run = docker_sandbox.run(Job(code, "f", ["x"], tests, 1.0, 256, budget_s=10.0))
    assert [(e["name"], e["outcome"], e["detail"]) for e in run.events] == [("t0", "timeout", "test time limit")]
    assert 1000 <= run.elapsed_ms < 1700  # one limit, not five


def test_a_container_is_recycled_after_its_job_quota(docker_image):
    with DockerSandbox(image=docker_image, pool_size=1, max_jobs=2) as sandbox:
        used = [sandbox.run(job("return x")).info["container"] for _ in range(3)]
    assert used[0] == used[1] != used[2]


def test_containers_of_a_dead_worker_are_removed(docker_sandbox, docker_image):
    import socket

    import docker

    api = docker_sandbox.client.api
    dead_owner = f"{socket.gethostname()}/999999999/0"
    orphan = api.create_container(
        docker_image,
        command=["sleep", "60"],
        labels={LABEL: "1", OWNER_LABEL: dead_owner, HOST_LABEL: socket.gethostname()},
        host_config=api.create_host_config(network_mode="none"),
    )["Id"]
    # Workers of this host check for orphans as they start (other tests start some meanwhile): one may remove
    # this container before it starts, or before the check below.  Either way it must be gone after the check.
    with contextlib.suppress(docker.errors.APIError):
        api.start(orphan)
    try:
        remove_orphans(docker_sandbox.client)
        # When another worker's check is already removing it, this one's removal answers 409 and leaves it to
        # that one: the container may still be listed (as "removing") for a moment.
        deadline = time.monotonic() + 10
        while api.containers(all=True, filters={"id": orphan}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not api.containers(all=True, filters={"id": orphan})
        live = [c.id for c in docker_sandbox.ready_containers()]
        assert all(api.containers(filters={"id": cid}) for cid in live)  # ours stay
    finally:
        api.remove_container(orphan, force=True) if api.containers(all=True, filters={"id": orphan}) else None


def test_the_grade_command_grades_several_files_in_docker(docker_image):
    files = [
        PROBLEMS / "prepend_class_token" / "solution.py",
        PROBLEMS / "prepend_class_token" / "wrong" / "appended.py",
    ]
    env = os.environ | {"SANDBOX_IMAGE": docker_image, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "grade",
            "prepend_class_token",
            *map(str, files),
            "--sandbox",
            "docker",
            "--json",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    verdicts = [entry["verdict"] for entry in json.loads(done.stdout)]
    assert verdicts[0] == "accepted"
    assert verdicts[1] != "accepted"


def test_auto_picks_docker_when_the_engine_and_image_are_there(docker_image, settings):
    from judge.lib.sandbox_backend import resolve_backend

    settings.SANDBOX_IMAGE = docker_image
    assert resolve_backend("auto") == "docker"
    settings.SANDBOX_IMAGE = "judge-sandbox:no-such-tag"
    assert resolve_backend("auto") == "process"


def test_a_pool_that_cannot_start_says_why():
    with pytest.raises(SandboxError, match=r"cannot start"):
        DockerSandbox(image="judge-sandbox:no-such-tag", pool_size=1).run(job("return x"))


def test_grading_with_a_sandbox_helper_spec(docker_sandbox):
    report = grade("def f(x):\n    return x * 2\n", spec(), one_case([1.0], [2.0]), docker_sandbox)
    assert report.verdict == "accepted"


def test_a_container_whose_template_died_is_replaced_before_the_next_job(docker_image):
    from tests.leftovers import zygote_pid

    with DockerSandbox(image=docker_image, pool_size=1) as sandbox:
        sandbox.wait_until_full()
        victim = sandbox.ready_containers()[0]
        zygote = zygote_pid(sandbox.client.api.inspect_container(victim.id)["State"]["Pid"])
        with open(f"/proc/{zygote}/task/{zygote}/children") as children:
            template = min(int(pid) for pid in children.read().split())  # the zygote's first child
        os.kill(template, 9)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and victim.channel.idle_and_healthy():
            time.sleep(0.05)  # the zygote ends with its template; the pool sees the stream close
        result = sandbox.run(job("return x * 2"))
    assert result.events[0]["outcome"] == "returned"
    assert result.info["container"] != victim.id[:12]
