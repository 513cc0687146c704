"""CPU per graded Submit on the production path, before and after, side by side in one run (issue 45).

Each side is a tree of the code: ``--before`` (a git ref, default ``main``, exported with ``git archive``) and
this checkout.  Each gets a sandbox image built from its own ``sandbox/`` (``sandbox/image/build.sh``) and, in
turn, a real Celery grading worker (one process, the Docker sandbox, PostgreSQL, Redis; speed measurement off,
so only grading is counted) started from its tree.  This process submits ``--submits`` correct Submits of
``--problem`` one after another through ``submit_solution`` (as the site does) and waits for each verdict.  What
a Submit cost is the CPU of the worker's process tree (/proc) plus the CPU of every sandbox container that
worker owns (their cgroups, read every half second), over the measured Submits, divided by their number.
The sides alternate in ``--rounds`` blocks, so a change in the machine's load falls on both; the figures are
each side's median over the rounds, and the ratio after / before.

    .venv/bin/python bench/grading_cpu.py [--before main] [--submits 30] [--rounds 3]

Needs the Docker engine (``bin/test tests/test_docker_backend.py`` sets it up), PostgreSQL and Redis on
127.0.0.1.  Target (issue 45): <= 10 ms of CPU per graded Submit.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
TICK = os.sysconf("SC_CLK_TCK")
CGROUP = Path("/sys/fs/cgroup/cpuacct/docker")


def export_tree(ref: str, into: Path) -> Path:
    """The code at ``ref``, as files (no checkout: the repository's worktrees are left alone)."""
    archive = subprocess.run(["git", "archive", "--format=tar", ref], cwd=ROOT, capture_output=True, check=True)
    target = into / "before"
    target.mkdir()
    with tarfile.open(fileobj=__import__("io").BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    return target


def build_image(tree: Path) -> str:
    built = subprocess.run(
        [str(ROOT / "sandbox" / "image" / "build.sh")],
        env=os.environ | {"JUDGE_SANDBOX_SRC": str(tree / "sandbox")},
        capture_output=True,
        text=True,
    )
    if built.returncode:
        raise SystemExit(f"building the sandbox image of {tree} failed:\n{built.stderr[-2000:]}")
    return built.stdout.strip().splitlines()[-1]


def tree_cpu_s(session: int) -> float:
    """CPU of every process in the worker's session (it starts its own), children it waited for included."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == session:
            total += sum(int(n) for n in fields[11:15])
    return total / TICK


def session_pids(session: int) -> set[str]:
    pids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[3]) == session:
                pids.add(stat.parent.name)
        except (OSError, IndexError, ValueError):
            continue
    return pids


class ContainerCPU:
    """The CPU of the sandbox containers a worker owns, read from their cgroups every half second: a container
    removed meanwhile keeps its last reading."""

    def __init__(self, session: int) -> None:
        import docker

        self.client, self.session = docker.from_env(), session
        self.usage: dict[str, int] = {}
        self.start: dict[str, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def owned(self) -> list[str]:
        pids = session_pids(self.session)
        found = []
        for container in self.client.api.containers(filters={"label": "org.numpy-judge.sandbox"}):
            owner = (container.get("Labels") or {}).get("org.numpy-judge.owner", "").split("/")
            if len(owner) > 1 and owner[1] in pids:
                found.append(container["Id"])
        return found

    def read(self) -> None:
        for container_id in self.owned():
            try:
                self.usage[container_id] = int((CGROUP / container_id / "cpuacct.usage").read_text())
            except (OSError, ValueError):
                continue

    def watch(self) -> None:
        while not self.stop.wait(0.5):
            self.read()

    def begin(self) -> None:
        self.read()
        self.start = dict(self.usage)
        self.thread.start()

    def end(self) -> float:
        self.stop.set()
        self.thread.join()
        self.read()
        return sum(used - self.start.get(cid, 0) for cid, used in self.usage.items()) / 1e9


def django_setup(env: dict) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def prepare(env: dict, problem: str) -> None:
    subprocess.run(
        [
            "psql",
            "-q",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-c",
            f"DROP DATABASE IF EXISTS {env['BENCH_DB']} WITH (FORCE)",
            "-c",
            f"CREATE DATABASE {env['BENCH_DB']}",
        ],
        check=True,
    )
    import redis

    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    for args in (["migrate", "--noinput", "-v0"], ["sync_problems", problem]):
        subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def start_worker(tree: Path, env: dict, image: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "judge",
            "worker",
            "-Q",
            "run,submit,rejudge",
            "--concurrency=1",
            "--without-mingle",
            "--without-gossip",
            "--loglevel=WARNING",
        ],
        cwd=tree,
        env=env | {"PYTHONPATH": str(tree), "SANDBOX_IMAGE": image},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=open(Path(env["JUDGE_VAR_DIR"]).parent / "worker.log", "ab"),
    )


def stop_worker(worker: subprocess.Popen) -> None:
    try:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
    except ProcessLookupError:
        pass


def submit_and_wait(user, problem, code: str, timeout: float = 120.0) -> float:
    from judge.submissions.models import Status, Submission
    from judge.submissions.services.intake import submit_solution

    started = time.monotonic()
    submission = submit_solution(user, problem, code)
    while time.monotonic() - started < timeout:
        row = Submission.objects.filter(pk=submission.pk).values_list("status", "verdict").first()
        if row[0] == Status.DONE:
            if row[1] != "accepted":
                raise SystemExit(f"submission {submission.pk} got {row[1]!r}, not accepted")
            return time.monotonic() - started
        time.sleep(0.01)
    raise SystemExit(f"submission {submission.pk} not graded within {timeout} s")


def measure(tree: Path, env: dict, image: str, user, problem, code: str, submits: int) -> dict:
    worker = start_worker(tree, env, image)
    try:
        for _ in range(3):  # the worker connects, opens its sandbox and reads the test set
            submit_and_wait(user, problem, code)
        time.sleep(2)  # the pool's containers are all up
        containers = ContainerCPU(worker.pid)
        worker_before = tree_cpu_s(worker.pid)
        containers.begin()
        latencies = [submit_and_wait(user, problem, code) for _ in range(submits)]
        worker_s, container_s = tree_cpu_s(worker.pid) - worker_before, containers.end()
    finally:
        stop_worker(worker)
    return {
        "worker": worker_s * 1000 / submits,
        "containers": container_s * 1000 / submits,
        "total": (worker_s + container_s) * 1000 / submits,
        "p50": statistics.median(latencies) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="main", help="git ref of the code to compare with (default main)")
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--submits", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", default="judge_bench_grading_cpu")
    parser.add_argument("--redis-db", type=int, default=13)
    args = parser.parse_args()
    if not (1 <= args.submits <= 500 and 1 <= args.rounds <= 10):
        parser.error("--submits must be 1-500 and --rounds 1-10")
    with tempfile.TemporaryDirectory(prefix="grading-cpu-") as scratch:
        trees = {"before": export_tree(args.before, Path(scratch)), "after": ROOT}
        images = {side: build_image(tree) for side, tree in trees.items()}
        redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JUDGE_TEST", "TEST_"))} | {
            "BENCH_DB": args.database,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.database}",
            "CELERY_BROKER_URL": redis_url,
            "REDIS_URL": redis_url,
            "SANDBOX_BACKEND": "docker",
            "MEASURE_SPEED": "0",
            "DEBUG": "0",
            "SECRET_KEY": "grading-cpu-benchmark-" + "x" * 40,
            "JUDGE_VAR_DIR": str(Path(scratch) / "var"),
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "judge.settings",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        prepare(env, args.problem)
        django_setup(env)
        from django.contrib.auth import get_user_model

        from judge.problems.models import Problem

        problem = Problem.objects.get(slug=args.problem)
        user = get_user_model().objects.create_user("bench-student", password="x" * 20)
        code = problem.solution_code
        results: dict[str, list[dict]] = {"before": [], "after": []}
        loads = []
        for round_ in range(args.rounds):
            for side in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                loads.append(os.getloadavg()[0])
                results[side].append(measure(trees[side], env, images[side], user, problem, code, args.submits))
                print(
                    f"round {round_ + 1} {side}: " + ", ".join(f"{k} {v:.1f}" for k, v in results[side][-1].items()),
                    flush=True,
                )
    print(
        f"\n## CPU per graded Submit ({args.problem}, {args.submits} Submits x {args.rounds} rounds per side; "
        f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs; before = {args.before})\n"
    )
    print("| figure (median of rounds) | before | after | after / before |")
    print("| --- | --- | --- | --- |")
    for key, label in (
        ("worker", "worker process tree, ms CPU"),
        ("containers", "sandbox containers, ms CPU"),
        ("total", "total, ms CPU"),
        ("p50", "submit -> verdict p50, ms"),
    ):
        before = statistics.median(r[key] for r in results["before"])
        after = statistics.median(r[key] for r in results["after"])
        print(f"| {label} | {before:.1f} | {after:.1f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
