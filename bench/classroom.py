"""A class of students on the real stack: graded/s, submit -> verdict, errors, and what the database says.

Starts its own compose-like stack on 127.0.0.1 (gunicorn with deploy/gunicorn.conf.py, uvicorn workers,
one grading Celery worker with as many processes as compose starts on run,submit,rejudge, a maintenance worker
with the beat, the speed worker (nice 19), PostgreSQL and Redis already running on this machine, the Docker
sandbox when it is there), in a database and a Redis db of its own.  Then Locust, as
a library, plays N students for a bounded time: each logs in, then submits (HTMX,
as the page does) and waits for the verdict the way the page does (the status long
poll), thinking 6-12 s between attempts.  The mix: 45% correct, 30% wrong, 15%
runtime errors, 10% infinite loops.  Each student connects from an address of
its own in 127.0.0.0/8 (``--one-address``: all from 127.0.0.1, a lab behind one
NAT address), which fair share counts beside the account.  Afterwards, a
"victim" submits a correct solution while another student has a flood of 20
loops queued, then while ten accounts flood 10 loops each, all posting at once:
from one address with the victim elsewhere, from one address with the victim at
the same address, and from ten addresses.  Finally the database is asked what became of every
submission.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/classroom.py --students 50 --duration 120
    .venv/bin/python bench/classroom.py --students 50 --duration 120 --no-victim --before main --rounds 1

With ``--before REF`` the same class runs against the code at REF and against this tree, in alternating rounds,
each with a sandbox image built from its own tree and as many grading processes as its compose file starts,
and a table compares the two (medians over the rounds).

Targets (issues 10 and 18, on a 2-core machine, 50 students, 10% loops): 0 errors, 0 lost,
0 graded twice, correct p95 submit -> verdict <= 5 s; the victim of one account's flood <= 3 s,
of ten accounts' flood <= 5 s.
Stops by itself: at most --duration seconds of load plus the drain (--drain-timeout).
"""

from __future__ import annotations

if __name__ == "__main__":  # Locust runs its students on gevent: patch before anything opens a socket
    from gevent import monkey

    monkey.patch_all()

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from requests.adapters import HTTPAdapter

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PASSWORD = "classroom pass phrase 42"
MIX = (("correct", 45), ("wrong", 30), ("runtime_error", 15), ("loop", 10))
FLOOD = 20
SOCKS, SOCK_LOOPS = 10, 10  # one person's flood from many accounts at one address
TARGETS = {"correct_p95_s": 5.0, "victim_s": 3.0, "socks_victim_s": 5.0}
FLOOD_ADDRESS, VICTIM_ADDRESS = "127.0.2.1", "127.0.3.1"


# --------------------------------------------------------------------------
# The code each kind of student sends
# --------------------------------------------------------------------------


def codes_for(slug: str) -> dict[str, str]:
    folder = ROOT / "problems" / slug
    function = tomllib.loads((folder / "problem.toml").read_text())["function"]
    name, params = function["name"], function["params"]
    signature = f"def {name}({', '.join(params)}):\n"
    return {
        "correct": (folder / "solution.py").read_text(),
        "wrong": min((folder / "wrong").glob("*.py")).read_text(),
        "runtime_error": f"import numpy as np\n\n\n{signature}    return {params[0]}[10 ** 9]\n",
        "loop": f"{signature}    while True:\n        pass\n",
    }


# --------------------------------------------------------------------------
# The stack
# --------------------------------------------------------------------------


@dataclass
class Stack:
    env: dict
    url: str
    tree: Path = ROOT  # the code the stack runs (``--before``: another tree)
    concurrency: int = 2
    processes: list = field(default_factory=list)
    logs: Path = ROOT / "var" / "bench-classroom"

    def manage(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=self.tree,
            env=self.env,
            input=stdin,
            text=True,
            capture_output=True,
            check=False,
        )
        if done.returncode:
            raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
        return done.stdout

    def django(self, code: str) -> dict:
        """Run ``code`` in a Django shell of the stack; it prints one JSON object."""
        return json.loads(self.manage("shell", "-c", code).strip().splitlines()[-1])

    def start(self, name: str, *command: str) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115  (the process writes it until stop())
        self.processes.append(
            subprocess.Popen(
                command, cwd=self.tree, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        )

    def stop(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def make_stack(args, tree: Path = ROOT, image: str | None = None) -> Stack:
    db_url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
    env = (
        {k: v for k, v in os.environ.items() if k != "JUDGE_TEST" and not k.startswith("TEST_")}
        | {
            # (no JUDGE_TEST: the production password hash)
            "DATABASE_URL": db_url,
            "CELERY_BROKER_URL": redis_url,
            "REDIS_URL": redis_url,
            "DEBUG": "0",
            "SECRET_KEY": "classroom-benchmark-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "JUDGE_PLAIN_HTTP": "1",  # gunicorn on 127.0.0.1 without a TLS proxy
            "JUDGE_VAR_DIR": str(ROOT / "var" / "bench-classroom"),
            "GUNICORN_BIND": f"127.0.0.1:{args.port}",
            "DATABASE_POOL_MAX": "12",
            "PYTHONPATH": str(tree),
            "LOG_LEVEL": "WARNING",
            "PROBLEMS_DIR": str(copy_problem(args.problem, ROOT / "var" / "bench-classroom" / "problems", tree)),
        }
        | ({"SANDBOX_IMAGE": image, "SANDBOX_BACKEND": "docker"} if image else {})
    )
    return Stack(env, f"http://127.0.0.1:{args.port}", tree, args.concurrency or compose_concurrency(tree))


def compose_concurrency(tree: Path) -> int:
    """The grading processes compose starts from ``tree`` (``WORKER_CONCURRENCY``'s default there)."""
    found = re.search(r"WORKER_CONCURRENCY:-(\d+)", (tree / "docker-compose.yml").read_text())
    return int(found.group(1)) if found else 2


def copy_problem(slug: str, into: Path, tree: Path = ROOT) -> Path:
    """The one problem the class works on, without its prerequisites (which are not loaded)."""
    target = into / slug
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(tree / "problems" / slug, target)
    manifest = target / "problem.toml"
    manifest.write_text(re.sub(r"(?m)^prerequisites = .*$", "prerequisites = []", manifest.read_text()))
    return into


def bring_up(stack: Stack, args) -> None:
    import redis

    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", args.port)) == 0:
            raise SystemExit(f"something already listens on 127.0.0.1:{args.port}; choose another --port")

    subprocess.run(
        [
            "psql",
            "-q",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-c",
            f"DROP DATABASE IF EXISTS {args.database}",
            "-c",
            f"CREATE DATABASE {args.database}",
        ],
        check=True,
    )
    redis.Redis.from_url(stack.env["CELERY_BROKER_URL"]).flushdb()
    stack.manage("migrate", "--noinput", "-v0")
    stack.manage("collectstatic", "--noinput", "-v0")  # DEBUG is off: WhiteNoise serves the collected files
    print(stack.manage("sync_problems", args.problem).strip())  # alone: PROBLEMS_DIR holds a copy without prerequisites
    stack.django(f"""
import json
from django.contrib.auth import get_user_model
User = get_user_model()
for i in range({args.students + 5}):
    User.objects.create_user(f"student{{i:03d}}", password={PASSWORD!r})
for i in range({3 * SOCKS}):
    User.objects.create_user(f"sock{{i:02d}}", password={PASSWORD!r})
print(json.dumps({{"ok": True}}))
""")
    celery = [
        PYTHON,
        "-m",
        "celery",
        "-A",
        "judge",
        "worker",
        "--loglevel=WARNING",
        "--without-mingle",
        "--without-gossip",
    ]
    stack.start("web", PYTHON, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "judge.asgi")
    stack.start(
        "worker",
        *celery,
        "-Q",
        "run,submit,rejudge",
        f"--concurrency={stack.concurrency}",
        "--hostname=classroom-grading@%h",
    )
    stack.start(
        "maintenance",
        *celery,
        "-Q",
        "maintenance",
        "--beat",
        "--pool=solo",
        "--hostname=classroom-maintenance@%h",
        f"--schedule={stack.logs}/beat-schedule",
    )
    # As compose's speed worker; its sandbox containers' CPU weight is the stack's (env), nice reaches only it.
    stack.start("speed", "nice", "-n", "19", *celery, "-Q", "speed", "--pool=solo", "--hostname=classroom-speed@%h")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(stack.url + "/accounts/login/", timeout=2)
            break
        except OSError:
            time.sleep(0.5)
    else:
        raise SystemExit(f"the web server did not answer; see {stack.logs}/web.log")
    time.sleep(5)  # the workers warm their sandboxes


# --------------------------------------------------------------------------
# One student, over HTTP, as the page does it
# --------------------------------------------------------------------------

SUBMISSION = re.compile(r'data-submission="(\d+)"')
FINAL = re.compile(r'data-final="(true|false)"')
STATUS = re.compile(r'data-status="(\w+)"')
VERDICT = re.compile(r'data-verdict="(\w+)"')


class FromAddress(HTTPAdapter):
    """Connects from one local address (every one of 127.0.0.0/8 reaches the stack), as if from one client."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs, source_address=(self.address, 0))


def from_address(session, address: str | None):
    if address:
        session.mount("http://", FromAddress(address))
    return session


def student_address(i: int) -> str:
    return f"127.0.1.{i + 1}"  # --students is at most 200


@dataclass
class Tally:
    latencies: dict = field(default_factory=lambda: {kind: [] for kind, _ in MIX})
    verdicts: dict = field(default_factory=dict)
    logins: list = field(default_factory=list)
    errors: dict = field(default_factory=dict)
    limited: int = 0
    lost: list = field(default_factory=list)
    ids: list = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def log_in(session, url: str, username: str, tally: Tally) -> None:
    session.get(f"{url}/accounts/login/")
    started = time.monotonic()
    response = session.post(
        f"{url}/accounts/login/",
        allow_redirects=False,
        data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": session.cookies.get("csrftoken", "")},
    )
    tally.logins.append(time.monotonic() - started)
    if response.status_code != 302:
        tally.error(f"login {response.status_code}")


def submit_and_wait(
    session, url: str, slug: str, code: str, tally: Tally, timeout: float = 240.0, kind: str = "submit"
) -> tuple[float, str] | None:
    """Submit as the page does and follow the status long poll; (seconds, verdict), or None."""
    headers = {"HX-Request": "true", "X-CSRFToken": session.cookies.get("csrftoken", ""), "Referer": url}
    started = time.monotonic()
    response = session.post(f"{url}/submissions/new/{slug}/", data={"code": code, "kind": kind}, headers=headers)
    if response.status_code == 429:
        tally.limited += 1
        return None
    found = SUBMISSION.search(response.text)
    if response.status_code != 200 or not found:
        tally.error(f"submit {response.status_code}")
        return None
    pk, page = found.group(1), response.text
    tally.ids.append(int(pk))
    while FINAL.search(page).group(1) != "true":
        if time.monotonic() - started > timeout:
            tally.lost.append(int(pk))
            return None
        status = STATUS.search(page)
        shown = status.group(1) if status else "queued"
        response = session.get(f"{url}/submissions/{pk}/status/?wait={shown}", headers=headers)
        if response.status_code != 200:
            tally.error(f"status {response.status_code}")
            time.sleep(0.7)
            continue
        page = response.text
    return time.monotonic() - started, VERDICT.search(page).group(1)


# --------------------------------------------------------------------------
# Phases
# --------------------------------------------------------------------------


def run_class(stack: Stack, args, codes: dict[str, str]) -> Tally:
    import gevent
    from locust import HttpUser, between, task
    from locust.env import Environment

    tally = Tally()
    names = iter(range(args.students))
    kinds, weights = zip(*MIX)
    rng = random.Random(args.seed)

    class Student(HttpUser):
        host = stack.url
        wait_time = between(6, 12)

        def on_start(self) -> None:
            i = next(names)
            from_address(self.client, None if args.one_address else student_address(i))
            log_in(self.client, stack.url, f"student{i:03d}", tally)

        @task
        def attempt(self) -> None:
            kind = rng.choices(kinds, weights)[0]
            outcome = submit_and_wait(self.client, stack.url, args.problem, codes[kind], tally)
            if outcome:
                tally.latencies[kind].append(outcome[0])
                tally.verdicts[outcome[1]] = tally.verdicts.get(outcome[1], 0) + 1

    # stop_timeout: at the end each student finishes the attempt in flight, followed to its verdict.
    environment = Environment(user_classes=[Student], stop_timeout=90)
    runner = environment.create_local_runner()
    runner.start(args.students, spawn_rate=args.spawn_rate)
    gevent.sleep(args.duration)
    runner.quit()
    return tally


def run_victim(
    stack: Stack,
    args,
    codes: dict[str, str],
    flooders: list[str],
    loops_each: int,
    victim: str,
    rounds: int = 5,
    spread: bool = False,
    victim_address: str = VICTIM_ADDRESS,
) -> tuple[list[float], int]:
    """``flooders`` (from one address, or each from its own with ``spread``) queue ``loops_each`` loops each, all
    at once; the victim (from ``victim_address``) submits a correct solution meanwhile, ``rounds`` times, each
    after the last one's verdict."""
    import requests

    tally = Tally()
    addresses = {f: f"127.0.4.{i + 1}" if spread else FLOOD_ADDRESS for i, f in enumerate(flooders)}

    def flood_from(flooder: str) -> int:
        flood = from_address(requests.Session(), addresses[flooder])
        log_in(flood, stack.url, flooder, tally)
        return sum(submit_once(flood, stack.url, args.problem, codes["loop"]) == 429 for _ in range(loops_each))

    # All at once, as attackers post: one account after another let each account's first loops be counted
    # before the next account's were sent, which a parallel flood does not (issue 38).
    with ThreadPoolExecutor(max_workers=len(flooders)) as pool:
        refusals = dict(zip(flooders, pool.map(flood_from, flooders)))
    refused = 0
    for flooder, refused_here in refusals.items():
        if not refused_here:
            continue
        # The HTTP rate limit refused part of that flood; the rest are queued as if sent over minutes.
        stack.django(f"""
import json
from django.contrib.auth import get_user_model
from judge.problems.models import Problem
from judge.submissions.services.intake import submit_solution
user = get_user_model().objects.get(username={flooder!r})
for _ in range({refused_here}):
    submit_solution(user, Problem.objects.get(slug={args.problem!r}), {codes["loop"]!r},
                    client_address={addresses[flooder]!r})
print(json.dumps({{"ok": True}}))
""")
        refused += refused_here
    session = from_address(requests.Session(), victim_address)
    log_in(session, stack.url, victim, tally)
    times = []
    for _ in range(rounds):
        outcome = submit_and_wait(session, stack.url, args.problem, codes["correct"], tally, timeout=120)
        times.append(outcome[0] if outcome else float("inf"))
        time.sleep(1.0)
    return times, refused


def submit_once(session, url: str, slug: str, code: str) -> int:
    headers = {"HX-Request": "true", "X-CSRFToken": session.cookies.get("csrftoken", ""), "Referer": url}
    return session.post(
        f"{url}/submissions/new/{slug}/", data={"code": code, "kind": "submit"}, headers=headers
    ).status_code


DB_REPORT = """
import json
from django.db.models import Count, Max, Min
from judge.submissions.models import Status, Submission
rows = Submission.objects.all()
span = rows.filter(status=Status.DONE).aggregate(first=Min("created_at"), last=Max("finished_at"))
print(json.dumps({
    "total": rows.count(),
    "open": rows.exclude(status=Status.DONE).count(),
    "by_status": dict(rows.values_list("status").annotate(n=Count("id"))),
    "internal_error": list(rows.filter(verdict="internal_error").values_list("id", "message")[:5]),
    "internal_errors": rows.filter(verdict="internal_error").count(),
    "graded_more_than_once": rows.filter(attempts__gt=1).count(),
    "span_s": (span["last"] - span["first"]).total_seconds() if span["first"] else 0,
    "done": rows.filter(status=Status.DONE).count(),
    "ids": list(rows.values_list("id", flat=True)),
}))
"""


def drain(stack: Stack, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        report = stack.django(DB_REPORT)
        if report["open"] == 0 or time.monotonic() > deadline:
            return report
        time.sleep(2)


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def seconds(values: list[float]) -> str:
    if not values:
        return "-"
    return " / ".join(f"{pct(values, q):.2f}" for q in (50, 95, 99)) + f" (n={len(values)})"


def mark(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(args, tally: Tally, graded: dict, db: dict, floods: list[tuple[str, str, list[float], int]]) -> None:
    """``graded``: the database after the class phase; ``db``: at the very end."""
    correct = tally.latencies["correct"]
    lost = set(tally.lost) | (set(tally.ids) - set(db["ids"]))
    errors = sum(tally.errors.values())
    print(
        f"\n## Classroom: {args.students} students, {args.duration:.0f} s, problem {args.problem}, "
        f"load average {os.getloadavg()[0]:.1f}\n"
    )
    print("| measure | value | target |")
    print("| --- | --- | --- |")
    print(f"| submissions accepted / graded | {len(tally.ids)} / {graded['done']} | |")
    rate = graded["done"] / graded["span_s"] if graded["span_s"] else 0
    print(f"| graded/s (first submit to last verdict) | {rate:.2f} | |")
    for kind, _ in MIX:
        target = (
            f"p95 <= {TARGETS['correct_p95_s']:.0f} s: {mark(pct(correct, 95) <= TARGETS['correct_p95_s'])}"
            if kind == "correct"
            else ""
        )
        print(
            f"| submit -> verdict, {kind.replace('_', ' ')}, p50 / p95 / p99 s | {seconds(tally.latencies[kind])} "
            f"| {target} |"
        )
    print(f"| login p50 / p95 / p99 s | {seconds(tally.logins)} | |")
    print(f"| HTTP errors | {errors} {tally.errors or ''} | 0: {mark(errors == 0)} |")
    print(f"| refused by the rate limit (429) | {tally.limited} | |")
    print(f"| lost (accepted, verdict never reached the student) | {len(lost)} | 0: {mark(not lost)} |")
    print(
        f"| stuck (not final {args.drain_timeout:.0f} s after the load) | {db['open']} | 0: {mark(db['open'] == 0)} |"
    )
    print(f"| internal_error | {db['internal_errors']} {db['internal_error'] or ''} | |")
    print(
        f"| graded more than once (attempts > 1) | {db['graded_more_than_once']} | 0: "
        f"{mark(db['graded_more_than_once'] == 0)} |"
    )
    for what, target, victim, refused in floods:
        print(
            f"| victim's correct submission during {what}, each / max s | "
            f"{', '.join(f'{t:.2f}' for t in victim)} / {max(victim):.2f} | <= {TARGETS[target]:.0f} s: "
            f"{mark(max(victim) <= TARGETS[target])} |"
        )
        print(f"| of that flood's HTTP submits, refused by the rate limit | {refused} | |")
    print(f"\nVerdicts seen by the students: {tally.verdicts}")


def summary(tally: Tally, graded: dict, db: dict) -> dict:
    """The figures compared side by side with ``--before``."""
    correct = tally.latencies["correct"]
    return {
        "correct p50 s": pct(correct, 50),
        "correct p95 s": pct(correct, 95),
        "every verdict p95 s": pct([t for times in tally.latencies.values() for t in times], 95),
        "graded/s": graded["done"] / graded["span_s"] if graded["span_s"] else 0.0,
        "graded": graded["done"],
        "HTTP errors": sum(tally.errors.values()),
        "lost": len(set(tally.lost) | (set(tally.ids) - set(db["ids"]))),
        "stuck": db["open"],
        "graded twice": db["graded_more_than_once"],
        "load average": os.getloadavg()[0],
    }


def compare(args, results: dict[str, list[dict]], concurrency: dict[str, int]) -> None:
    import statistics

    print(
        f"\n## Before ({args.before}, {concurrency['before']} grading processes) and after (this tree, "
        f"{concurrency['after']}), median of {args.rounds} round(s), {args.students} students, "
        f"{args.duration:.0f} s\n"
    )
    print("| figure | before | after | after / before |")
    print("| --- | --- | --- | --- |")
    for key in results["after"][0]:
        before, after = (statistics.median(r[key] for r in results[side]) for side in ("before", "after"))
        ratio = f"{after / before:.2f}" if before else "-"
        print(f"| {key} | {before:.2f} | {after:.2f} | {ratio} |")


def run_side(args, codes: dict[str, str], tree: Path, image: str | None) -> tuple[dict, int]:
    stack = make_stack(args, tree, image)
    try:
        bring_up(stack, args)
        tally = run_class(stack, args, codes)
        graded = db = drain(stack, args.drain_timeout)
        floods = [] if args.no_victim else run_floods(stack, args, codes)
        if floods:
            db = drain(stack, args.drain_timeout)
        report(args, tally, graded, db, floods)
        return summary(tally, graded, db), stack.concurrency
    finally:
        stack.stop()


def run_floods(stack: Stack, args, codes: dict[str, str]) -> list:
    """The victim of a flood, in four layouts, each flood drained before the next (issue 38's three address
    layouts for ten accounts, beside one account's flood)."""
    n, socks = args.students, [[f"sock{i:02d}" for i in range(k * SOCKS, (k + 1) * SOCKS)] for k in range(3)]
    phases = [
        (
            f"one account's flood of {FLOOD} loops",
            "victim_s",
            dict(flooders=[f"student{n:03d}"], loops_each=FLOOD, victim=f"student{n + 1:03d}"),
        ),
        (
            f"{SOCK_LOOPS} loops from each of {SOCKS} accounts at one address, victim elsewhere",
            "socks_victim_s",
            dict(flooders=socks[0], loops_each=SOCK_LOOPS, victim=f"student{n + 2:03d}"),
        ),
        (
            f"{SOCK_LOOPS} loops from each of {SOCKS} accounts at one address, victim at the same address",
            "socks_victim_s",
            dict(flooders=socks[1], loops_each=SOCK_LOOPS, victim=f"student{n + 3:03d}", victim_address=FLOOD_ADDRESS),
        ),
        (
            f"{SOCK_LOOPS} loops from each of {SOCKS} accounts at {SOCKS} addresses, victim elsewhere",
            "socks_victim_s",
            dict(flooders=socks[2], loops_each=SOCK_LOOPS, victim=f"student{n + 4:03d}", spread=True),
        ),
    ]
    floods = []
    for what, target, options in phases:
        floods.append((what, target, *run_victim(stack, args, codes, **options)))
        drain(stack, args.drain_timeout)
    return floods


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=50)
    parser.add_argument("--duration", type=float, default=120.0, help="seconds of load (at most 600)")
    parser.add_argument("--spawn-rate", type=float, default=10.0, help="students logging in per second")
    parser.add_argument(
        "--problem", default="prepend_class_token", choices=["prepend_class_token", "scaled_dot_product_attention"]
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="grading worker processes (default: compose's, read from each tree)",
    )
    parser.add_argument("--before", help="a git ref to run beside this tree, side by side (its own sandbox image)")
    parser.add_argument("--rounds", type=int, default=1, help="with --before: alternating rounds per side")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--database", default="judge_bench_classroom")
    parser.add_argument("--redis-db", type=int, default=14)
    parser.add_argument("--drain-timeout", type=float, default=180.0)
    parser.add_argument("--no-victim", action="store_true", help="skip the flood-and-victim phases")
    parser.add_argument(
        "--one-address", action="store_true", help="every student from 127.0.0.1 (a lab behind one NAT address)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (1 <= args.students <= 200 and 0 < args.duration <= 600):
        parser.error("--students must be 1-200 and --duration at most 600 s")

    codes = codes_for(args.problem)
    if not args.before:
        run_side(args, codes, ROOT, None)
        return
    import tempfile

    sys.path.insert(0, str(ROOT))
    from bench.grading_cpu import build_image, export_tree

    with tempfile.TemporaryDirectory(prefix="classroom-") as scratch:
        trees = {"before": export_tree(args.before, Path(scratch)), "after": ROOT}
        images = {side: build_image(tree) for side, tree in trees.items()}
        results: dict[str, list[dict]] = {"before": [], "after": []}
        concurrency: dict[str, int] = {}
        for round_ in range(args.rounds):
            for side in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                print(f"\n# Round {round_ + 1}, {side}", flush=True)
                figures, concurrency[side] = run_side(args, codes, trees[side], images[side])
                results[side].append(figures)
        compare(args, results, concurrency)


if __name__ == "__main__":
    main()
