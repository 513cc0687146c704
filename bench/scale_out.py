"""Scale out, shown (issue 44 §4): graded/s with 1, 2 and 3 grading workers, each as another host would run it.

Each grading worker is started with compose's ``worker`` command (read from docker-compose.yml, with its
default concurrency and sandbox pool), inside a network namespace of its own: it sees no 127.0.0.1 of this
machine, only a veth link to it, and reaches PostgreSQL and Redis over that link (a socat relay on the link's
address forwards to this machine's PostgreSQL and Redis, which listen on 127.0.0.1 only).  Compose's
maintenance worker (the beat and the recovery sweep) runs on this machine, as on the database host.

For each count in ``--workers`` (default 1, 2, 3): start that many workers, wait until each is ready, submit
a burst of ``--burst`` Submits through the intake service (as the Submit button does: stored, then sent to
the broker once committed; 70% correct, 30% a known-wrong solution, one from each student, so the
per-student cap parks none), and wait until every one has its verdict.  graded/s is the burst over the time
from the first Submit stored to the last verdict recorded, both read from the database.  Also printed: how
many each worker graded, and what the database says was lost or claimed more than once.

    .venv/bin/python bench/scale_out.py                       # --workers 1,2,3 --burst 240
    .venv/bin/python bench/scale_out.py --sandbox docker      # the sandbox compose uses (needs the engine)

Needs root (network namespaces, veth links), socat, and PostgreSQL and Redis on 127.0.0.1.  With
``--no-namespaces`` every worker runs as a plain process of this machine instead (and says so).  Stops by
itself: each round is bounded by ``--timeout``; workers, relays, links and namespaces are removed at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.classroom import copy_problem  # noqa: E402

VENV_BIN = Path(sys.executable).parent
NET = "10.251"  # worker i's link: 10.251.i.1 (this machine) <-> 10.251.i.2 (its namespace)


def compose_command(service: str) -> list[str]:
    """A compose service's command with its ${VAR:-default}s at their defaults, and this venv's programs."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"][service]["command"]
    expanded = [re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", part) for part in command]
    programs = {"celery": str(VENV_BIN / "celery"), "python3": sys.executable}
    return [programs.get(part, part) for part in expanded]


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=check, capture_output=True, text=True)


class Host:
    """One worker host: a network namespace linked to this machine, with relays to PostgreSQL and Redis."""

    def __init__(self, index: int, namespaces: bool) -> None:
        self.index, self.namespaces = index, namespaces
        self.name = f"judge-hall-w{index}"
        self.here, self.there = f"{NET}.{index}.1", f"{NET}.{index}.2"
        self.relays: list[subprocess.Popen] = []

    @property
    def services(self) -> str:
        """The address this host reaches PostgreSQL and Redis at."""
        return self.here if self.namespaces else "127.0.0.1"

    def create(self) -> None:
        if not self.namespaces:
            return
        self.destroy()
        link = f"jhw{self.index}"
        run("ip", "netns", "add", self.name)
        run("ip", "link", "add", f"{link}h", "type", "veth", "peer", "name", f"{link}n")
        run("ip", "link", "set", f"{link}n", "netns", self.name)
        run("ip", "addr", "add", f"{self.here}/30", "dev", f"{link}h")
        run("ip", "link", "set", f"{link}h", "up")
        inside = ("ip", "netns", "exec", self.name)
        run(*inside, "ip", "addr", "add", f"{self.there}/30", "dev", f"{link}n")
        run(*inside, "ip", "link", "set", f"{link}n", "up")
        run(*inside, "ip", "link", "set", "lo", "up")
        for port in (5432, 6379):
            self.relays.append(
                subprocess.Popen(
                    ["socat", f"TCP-LISTEN:{port},bind={self.here},reuseaddr,fork", f"TCP:127.0.0.1:{port}"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        time.sleep(0.3)
        probe = run(*inside, "pg_isready", "-q", "-h", self.here, "-U", "postgres", check=False)
        if probe.returncode:
            raise SystemExit(f"{self.name}: PostgreSQL is not reachable at {self.here} from the namespace")
        if run(*inside, "pg_isready", "-q", "-h", "127.0.0.1", "-t", "2", check=False).returncode == 0:
            raise SystemExit(f"{self.name}: the namespace reaches this machine's 127.0.0.1; it is no other host")

    def prefix(self) -> list[str]:
        return ["ip", "netns", "exec", self.name] if self.namespaces else []

    def destroy(self) -> None:
        for relay in self.relays:
            relay.terminate()
            relay.wait()
        self.relays = []
        if self.namespaces:
            run("ip", "netns", "del", self.name, check=False)  # takes its end of the veth link, and so the link


class Stack:
    def __init__(self, args) -> None:
        self.args = args
        self.var = ROOT / "var" / "bench-scale-out"
        self.var.mkdir(parents=True, exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if k not in ("JUDGE_TEST", "REDIS_URL")} | {
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.database}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
            "SECRET_KEY": "scale-out-benchmark-" + "x" * 40,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "JUDGE_PLAIN_HTTP": "1",
            "SANDBOX_BACKEND": args.sandbox,
            "SANDBOX_POOL_SIZE": "2",
            "JUDGE_VAR_DIR": str(self.var),
            "PYTHONPATH": str(ROOT),
            "LOG_FORMAT": "json",
            "PROBLEMS_DIR": str(self.var / "problems"),
            "MEASURE_SPEED": "0",
        }
        self.workers: list[subprocess.Popen] = []

    def env_for(self, host: Host, index: int) -> dict:
        return self.env | {
            "DATABASE_URL": f"postgres://postgres@{host.services}:5432/{self.args.database}",
            "CELERY_BROKER_URL": f"redis://{host.services}:6379/{self.args.redis_db}",
            "JUDGE_VAR_DIR": str(self.var / f"worker{index}"),
            "WORKER_BEAT_FILE": str(self.var / f"worker{index}" / "beat"),
        }

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, text=True, capture_output=True, check=False
        )
        if done.returncode:
            raise SystemExit(f"manage.py {args[0]} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
        return done.stdout

    def django(self, code: str) -> dict:
        return json.loads(self.manage("shell", "-c", code).strip().splitlines()[-1])

    def prepare(self) -> None:
        import redis

        subprocess.run(
            [
                "psql",
                "-q",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-c",
                f"DROP DATABASE IF EXISTS {self.args.database}",
                "-c",
                f"CREATE DATABASE {self.args.database}",
            ],
            check=True,
        )
        redis.Redis.from_url(self.env["CELERY_BROKER_URL"]).flushdb()
        copy_problem(self.args.problem, self.var / "problems")
        self.manage("migrate", "--noinput", "-v0")
        self.manage("sync_problems", self.args.problem)
        self.django(f"""
import json
from django.contrib.auth import get_user_model
for i in range({self.args.burst}):
    get_user_model().objects.create_user(f"student{{i:03d}}")
print(json.dumps({{}}))
""")

    def start(self, name: str, prefix: list[str], command: list[str], env: dict) -> subprocess.Popen:
        Path(env["JUDGE_VAR_DIR"]).mkdir(parents=True, exist_ok=True)
        log = open(self.var / f"{name}.log", "wb")  # noqa: SIM115  (the worker writes it until it stops)
        process = subprocess.Popen(
            [*prefix, *command, f"--hostname={name}@%h"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.workers.append(process)
        return process

    def stop(self, processes: list[subprocess.Popen]) -> None:
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            self.workers.remove(process)

    def burst(self) -> list[int]:
        folder = self.var / "problems" / self.args.problem
        return self.django(f"""
import json
from pathlib import Path
from django.contrib.auth import get_user_model
from judge.problems.models import Problem
from judge.submissions.services.intake import submit_solution
problem = Problem.objects.get(slug={self.args.problem!r})
correct = Path({str(folder / "solution.py")!r}).read_text()
wrong = Path(sorted(Path({str(folder / "wrong")!r}).glob("*.py"))[0]).read_text()
users = list(get_user_model().objects.filter(username__startswith="student").order_by("pk"))
pks = [submit_solution(users[i % len(users)], problem, wrong if i % 10 < 3 else correct).pk for i in range({self.args.burst})]
print(json.dumps(pks))
""")

    def outcome(self, pks: list[int]) -> dict:
        return self.django(f"""
import json
from collections import Counter
from django.db.models import Max, Min
from judge.submissions.models import Status, Submission
rows = Submission.objects.filter(pk__in={pks!r})
done = rows.filter(status=Status.DONE)
span = done.aggregate(first=Min("created_at"), last=Max("finished_at"))
seconds = (span["last"] - span["first"]).total_seconds() if span["last"] else None
print(json.dumps({{"done": done.count(), "seconds": seconds, "claimed_twice": rows.filter(attempts__gt=1).count(),
                   "verdicts": dict(Counter(done.values_list("verdict", flat=True)))}}))
""")


def graded_by(stack: Stack, name: str) -> int:
    path = stack.var / f"{name}.log"
    return len(re.findall(r"submission \d+ graded", path.read_text(errors="replace"))) if path.exists() else 0


def cpu_times() -> tuple[int, int]:
    """The machine's busy and total CPU time so far, from /proc/stat (all cores, whoever used them)."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    return sum(fields) - fields[3] - fields[4], sum(fields)  # idle and iowait are not busy


def wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.5)


def one_round(stack: Stack, hosts: list[Host], count: int, round_no: int) -> dict:
    names = [f"scale-r{round_no}-w{i}" for i in range(count)]
    workers = [
        stack.start(name, host.prefix(), compose_command("worker"), stack.env_for(host, i))
        for i, (name, host) in enumerate(zip(names, hosts, strict=False))
    ]
    wait_until(
        lambda: all(b" ready." in (stack.var / f"{n}.log").read_bytes() for n in names),
        stack.args.timeout,
        f"{count} workers to be ready",
    )
    time.sleep(stack.args.warm)  # their sandbox pools fill
    load, cpu = Path("/proc/loadavg").read_text().split()[0], cpu_times()
    pks = stack.burst()
    started = time.monotonic()
    wait_until(
        lambda: stack.outcome(pks)["done"] == len(pks) or time.monotonic() - started > stack.args.timeout,
        stack.args.timeout + 30,
        "the burst",
    )
    result = stack.outcome(pks)
    busy, total = (now - then for now, then in zip(cpu_times(), cpu, strict=True))
    stack.stop(workers)
    return result | {
        "workers": count,
        "burst": len(pks),
        "load": load,
        "load_end": Path("/proc/loadavg").read_text().split()[0],
        "share": [graded_by(stack, n) for n in names],
        "cpu_busy_pct": 100 * busy / total,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,2,3", help="grading workers per round, comma-separated")
    parser.add_argument("--burst", type=int, default=240, help="Submits per round")
    parser.add_argument("--sandbox", default="process", choices=["process", "docker"])
    parser.add_argument("--no-namespaces", action="store_true", help="plain processes of this machine")
    parser.add_argument("--warm", type=float, default=5.0, help="seconds for the workers' sandboxes to start")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds, per round")
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--database", default="judge_bench_scale_out")
    parser.add_argument("--redis-db", type=int, default=14)
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    namespaces = not args.no_namespaces
    if namespaces and (os.geteuid() != 0 or not shutil.which("socat")):
        raise SystemExit("network namespaces need root and socat; or run with --no-namespaces")
    stack = Stack(args)
    hosts = [Host(i + 1, namespaces) for i in range(max(counts))]
    results = []
    try:
        for host in hosts:
            host.create()
        stack.prepare()
        stack.start(
            "maintenance",
            [],
            compose_command("maintenance")[:-1] + [f"--schedule={stack.var}/beat-schedule"],
            stack.env_for(Host(0, False), 0),
        )
        for round_no, count in enumerate(counts):
            results.append(one_round(stack, hosts, count, round_no))
            print(json.dumps(results[-1]), flush=True)
    finally:
        stack.stop(list(stack.workers))
        for host in hosts:
            host.destroy()
    where = (
        "each in its own network namespace, PostgreSQL and Redis over a veth link"
        if namespaces
        else "plain processes of this machine (--no-namespaces)"
    )
    print(
        f"\nScale out: compose's worker command ({' '.join(compose_command('worker')[1:])}), {where}; "
        f"{args.sandbox} sandbox, {os.cpu_count()} cores, a burst of {args.burst} Submits per round"
    )
    print(
        "| grading workers | graded/s | final | claimed twice | graded by each worker | machine's CPU busy "
        "| load average start / end |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    base = None
    for r in results:
        rate = r["done"] / r["seconds"] if r["seconds"] else 0.0
        base = base or rate
        print(
            f"| {r['workers']} | {rate:.1f} ({rate / base:.2f}x) | {r['done']} of {r['burst']} | {r['claimed_twice']} | "
            f"{' / '.join(map(str, r['share']))} | {r['cpu_busy_pct']:.0f}% | {r['load']} / {r['load_end']} |"
        )


if __name__ == "__main__":
    main()
