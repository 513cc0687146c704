"""The lecture hall, measured the independent way (issue 44 §5): one student's page while a hall waits.

The web server is started exactly as compose's ``web`` service starts it (``gunicorn -c deploy/gunicorn.conf.py
judge.asgi``, with that service's environment: 3 uvicorn processes, a pool of 12 PostgreSQL connections each,
JSON logs, DEBUG off), against the PostgreSQL and Redis of this machine, in a database of its own.  No grading
worker runs; the benchmark plays it.  Then, with asyncio on 127.0.0.1:

1. one student signs in through the sign-in form and submits through the Submit form; the "worker" claims the
   submission (it is running, as while a hall waits for its verdicts) and says so on Redis;
2. ``--streams`` connections hold that submission's status stream open (``?shown=running``, the student's
   session cookie), opened 100 at a time;
3. the same student loads the problem page 30 times, one after another, with 10 streams open and again with
   all of them open: p50 and p95;
4. with every stream open and nothing else happening for ``--idle`` seconds: the database's transactions a second
   (``pg_stat_database``) and the web processes' CPU;
5. the "worker" records the verdict and publishes it: how long until it reached each stream (p50, p95, the last).

With ``--before <commit>`` the same is run on that commit's code too (a detached git worktree in /tmp, its own
database, this venv), the two in turn, and the table shows both and their ratio.

    .venv/bin/python bench/lecture_hall.py --streams 2000
    .venv/bin/python bench/lecture_hall.py --streams 2000 --before 36dc0e2

Target (issue 44, 2-core machine): the problem page's p95 <= 150 ms with 2,000 streams open.
Every phase is bounded (``--timeout``); the servers are stopped and the worktree removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.classroom import copy_problem  # noqa: E402

PASSWORD = "lecture hall pass phrase 44"
USERNAME = "hall_student"
PAGE_LOADS = 30
FEW = 10
TARGET_PAGE_P95_MS = 150.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def load_average() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


# --- One site: a tree of the code, its database, its gunicorn ------------------------------------------------


@dataclass
class Site:
    label: str
    root: Path
    database: str
    port: int
    redis_url: str
    var: Path
    process: subprocess.Popen | None = None
    env: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.var.mkdir(parents=True, exist_ok=True)
        # compose's `web` service: the x-app environment and the service's own (docker-compose.yml)
        self.env = {k: v for k, v in os.environ.items() if k not in ("JUDGE_TEST", "REDIS_URL")} | {
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.database}",
            "CELERY_BROKER_URL": self.redis_url,
            "SECRET_KEY": "lecture-hall-benchmark-" + "x" * 40,
            "ALLOWED_HOSTS": "localhost,127.0.0.1",
            "CSRF_TRUSTED_ORIGINS": "https://localhost,https://127.0.0.1",
            "DEBUG": "0",
            "JUDGE_PLAIN_HTTP": "1",
            "TRUSTED_PROXY_COUNT": "0",
            "SANDBOX_BACKEND": "docker",
            "WORKER_BEAT_FILE": str(self.var / "worker-beat"),
            "LOG_FORMAT": "json",
            "METRICS_TOKEN": "",
            "METRICS_NETWORKS": "127.0.0.0/8,::1/128",
            "GUNICORN_WORKERS": "3",
            "GUNICORN_THREADS": "32",
            "DATABASE_POOL_MAX": "12",
            "PROMETHEUS_MULTIPROC_DIR": str(self.var / "metrics"),
            # Only what a machine without compose needs: where it listens, its files, the one problem.
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "JUDGE_VAR_DIR": str(self.var),
            "PYTHONPATH": str(self.root),
            "LOG_LEVEL": "WARNING",
            "PROBLEMS_DIR": str(self.var / "problems"),
        }

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=self.root,
            env=self.env,
            text=True,
            capture_output=True,
            check=False,
        )
        if done.returncode:
            raise SystemExit(f"[{self.label}] manage.py {args[0]} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
        return done.stdout

    def prepare(self, problem: str) -> None:
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
                f"DROP DATABASE IF EXISTS {self.database}",
                "-c",
                f"CREATE DATABASE {self.database}",
            ],
            check=True,
        )
        redis.Redis.from_url(self.redis_url).flushdb()
        copy_problem(problem, self.var / "problems")
        self.manage("migrate", "--noinput", "-v0")
        self.manage("collectstatic", "--noinput", "-v0")
        self.manage("sync_problems", problem)
        self.manage(
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; "
            f"get_user_model().objects.create_user({USERNAME!r}, password={PASSWORD!r})",
        )

    def start(self) -> None:
        log = open(self.var / "web.log", "wb")  # noqa: SIM115  (gunicorn writes it until stop())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "judge.asgi"],
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/accounts/login/", timeout=2)
                return
            except OSError:
                time.sleep(0.5)
        raise SystemExit(f"[{self.label}] the web server did not answer; see {self.var}/web.log")

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process = None

    def web_cpu_s(self) -> float:
        """CPU seconds used so far by gunicorn's master and its uvicorn processes."""
        master, total = self.process.pid, 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid = int(stat.parent.name)
            if pid == master or int(fields[1]) == master:  # fields[1]: the parent's pid
                total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")

    def transactions(self) -> int:
        out = subprocess.run(
            [
                "psql",
                "-Atq",
                "-h",
                "127.0.0.1",
                "-U",
                "postgres",
                "-c",
                f"SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '{self.database}'",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return int(out.strip())

    def play_the_worker(self, *statements: str) -> dict:
        code = (
            "import json, time\nfrom engine.grading import GradeReport\nfrom engine.verdicts import Verdict\n"
            "from judge.grading import recording\nfrom judge.submissions import push\n"
            "from judge.submissions.models import Status, Submission\nfrom judge.submissions.services import claims\n"
            + "\n".join(statements)
        )
        return json.loads(self.manage("shell", "-c", code).strip().splitlines()[-1])


# --- The student's browser -----------------------------------------------------------------------------------


def sign_in_and_submit(site: Site, problem: str) -> tuple[str, int]:
    """The session cookie ("name=value") and the submission, both through the forms, as a browser would."""
    jar = http.cookiejar.CookieJar()

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None  # keep the 302: its Location names the submission

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), Stay)

    def post(path: str, form: dict, referer: str) -> str:
        token = next(c.value for c in jar if c.name == "csrftoken")
        data = urllib.parse.urlencode(form | {"csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(site.url + path, data, headers={"Referer": site.url + referer})
        try:
            opener.open(request, timeout=30)
        except urllib.error.HTTPError as exc:
            if exc.code == 302:
                return exc.headers["Location"]
            raise
        raise SystemExit(f"[{site.label}] {path}: no redirect")

    opener.open(site.url + "/accounts/login/", timeout=30).read()
    post("/accounts/login/", {"username": USERNAME, "password": PASSWORD}, "/accounts/login/")
    opener.open(site.url + f"/problems/{problem}/", timeout=30).read()
    code = (ROOT / "problems" / problem / "solution.py").read_text()
    location = post(f"/submissions/new/{problem}/", {"code": code, "kind": "submit"}, f"/problems/{problem}/")
    pk = int(re.search(r"/submissions/(\d+)/", location)[1])
    session = next(c for c in jar if c.name == "sessionid")
    return f"{session.name}={session.value}", pk


class StreamClient:
    """One connection holding the status stream open: when each status event arrived."""

    def __init__(self, port: int, pk: int, cookie: str) -> None:
        self.port, self.pk, self.cookie = port, pk, cookie
        self.opened = asyncio.Event()
        self.settled = asyncio.Event()  # the verdict came, or the stream ended
        self.events: list[tuple[str, float]] = []
        self.failed = ""

    async def run(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(
                f"GET /submissions/{self.pk}/events/?shown=running HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Cookie: {self.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            status_line = await reader.readline()
            if b" 200 " not in status_line:
                self.failed = status_line.decode(errors="replace").strip() or "closed"
                return
            self.opened.set()
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    self.events.append((line[6:].strip().decode(), time.time()))
                    if self.events[-1][0] == "done":
                        self.settled.set()
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.failed = type(exc).__name__
        finally:
            self.opened.set()
            self.settled.set()


async def timed_get(port: int, path: str, cookie: str) -> float:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readline()
    await reader.read()  # to the end: Connection: close
    writer.close()
    if b" 200 " not in head:
        raise RuntimeError(f"{path}: {head!r}")
    return (time.perf_counter() - started) * 1000


async def page_loads(port: int, problem: str, cookie: str) -> list[float]:
    return [await timed_get(port, f"/problems/{problem}/", cookie) for _ in range(PAGE_LOADS)]


# --- One measurement -----------------------------------------------------------------------------------------


async def measure(site: Site, args, cookie: str, pk: int) -> dict:
    clients = [StreamClient(site.port, pk, cookie) for _ in range(args.streams)]
    tasks: list[asyncio.Future] = []

    async def open_up_to(count: int) -> None:
        while len(tasks) < count:
            batch = clients[len(tasks) : min(count, len(tasks) + 100)]
            tasks.extend(asyncio.ensure_future(c.run()) for c in batch)
            await asyncio.wait_for(asyncio.gather(*(c.opened.wait() for c in batch)), args.timeout)

    result: dict = {"load_start": load_average()}
    await open_up_to(FEW)
    await page_loads(site.port, args.problem, cookie)  # warm each process's templates and pools
    few = await asyncio.wait_for(page_loads(site.port, args.problem, cookie), args.timeout)
    await open_up_to(args.streams)
    await asyncio.sleep(12)  # the last ones settle, and PostgreSQL's idle backends report their counts (10 s)
    xacts, cpu, started = site.transactions(), site.web_cpu_s(), time.monotonic()
    await asyncio.sleep(args.idle)
    idle_s = time.monotonic() - started
    result["xact_per_s"] = (site.transactions() - xacts) / idle_s
    result["web_cpu_pct"] = 100 * (site.web_cpu_s() - cpu) / idle_s
    many = await asyncio.wait_for(page_loads(site.port, args.problem, cookie), args.timeout)
    recorded = (
        await asyncio.to_thread(
            site.play_the_worker,
            "push.redis_client().ping()",  # a worker's connection to Redis is open already
            f"token = Submission.objects.filter(pk={pk}).values_list('claim', flat=True).get()",
            f"assert recording.record_verdict({pk}, token, GradeReport(Verdict.ACCEPTED))",
            "recorded = time.time()",
            f"push.publish_status({pk}, Status.DONE)",
            "print(json.dumps({'recorded': recorded}))",
        )
    )["recorded"]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(c.settled.wait() for c in clients)), args.timeout)
    for task in tasks:
        task.cancel()
    arrivals = [
        1000 * (next(at for status, at in c.events if status == "done") - recorded)
        for c in clients
        if any(status == "done" for status, _ in c.events)
    ]
    return result | {
        "streams": args.streams,
        "opened": sum(1 for c in clients if not c.failed),
        "failed": sorted({c.failed for c in clients if c.failed}),
        "few_p50": pct(few, 0.5),
        "few_p95": pct(few, 0.95),
        "many_p50": pct(many, 0.5),
        "many_p95": pct(many, 0.95),
        "delivered": len(arrivals),
        "verdict_p50": pct(arrivals, 0.5),
        "verdict_p95": pct(arrivals, 0.95),
        "verdict_last": max(arrivals, default=float("nan")),
        "load_end": load_average(),
    }


def run_site(site: Site, args) -> dict:
    print(f"[{site.label}] preparing {site.database} from {site.root}", flush=True)
    site.prepare(args.problem)
    site.start()
    try:
        cookie, pk = sign_in_and_submit(site, args.problem)
        site.play_the_worker(
            f"token = claims.claim_submission({pk})",
            "assert token is not None",
            f"push.publish_status({pk}, Status.RUNNING)",
            "print(json.dumps({}))",
        )
        result = asyncio.run(measure(site, args, cookie, pk))
    finally:
        site.stop()
    print(f"[{site.label}] {json.dumps(result)}", flush=True)
    return result


# --- The table -----------------------------------------------------------------------------------------------

ROWS = [
    ("problem page, {few} streams open: p50 / p95", lambda r: f"{r['few_p50']:.0f} / {r['few_p95']:.0f} ms", "few_p95"),
    (
        "problem page, {n} streams open: p50 / p95",
        lambda r: f"{r['many_p50']:.0f} / {r['many_p95']:.0f} ms",
        "many_p95",
    ),
    ("transactions/s while {n} wait ({idle:.0f} s, nothing else)", lambda r: f"{r['xact_per_s']:.1f}", "xact_per_s"),
    ("web processes' CPU while {n} wait", lambda r: f"{r['web_cpu_pct']:.1f}% of a core", "web_cpu_pct"),
    (
        "one verdict -> all {n} streams: p50 / p95 / last",
        lambda r: f"{r['verdict_p50']:.0f} / {r['verdict_p95']:.0f} / {r['verdict_last']:.0f} ms",
        "verdict_p95",
    ),
    ("streams open; verdict delivered to", lambda r: f"{r['opened']} / {r['delivered']} of {r['streams']}", None),
    ("load average at start / end", lambda r: f"{r['load_start']} / {r['load_end']}", None),
]


def report(results: dict[str, list[dict]], args) -> None:
    labels = list(results)
    print(
        f"\nLecture hall, the independent way: {args.streams} streams, {PAGE_LOADS} page loads in a row, "
        f"compose's web service (3 uvicorn processes)"
    )
    print("| what | " + " | ".join(labels) + (" | after / before |" if len(labels) == 2 else " |"))
    print("| --- " * (len(labels) + 1 + (len(labels) == 2)) + "|")
    for title, shown, key in ROWS:
        cells = [", ".join(shown(r) for r in results[label]) for label in labels]
        if len(labels) == 2 and key:
            before = sum(r[key] for r in results[labels[0]]) / len(results[labels[0]])
            after = sum(r[key] for r in results[labels[1]]) / len(results[labels[1]])
            cells.append(f"{after / before:.2f}" if before else "-")
        elif len(labels) == 2:
            cells.append("")
        print(f"| {title.format(few=FEW, n=args.streams, idle=args.idle)} | " + " | ".join(cells) + " |")
    latest = results[labels[-1]]
    met = all(r["many_p95"] <= TARGET_PAGE_P95_MS and r["opened"] == r["streams"] for r in latest)
    print(f"target (page p95 <= {TARGET_PAGE_P95_MS:.0f} ms with {args.streams} open): {'met' if met else 'NOT MET'}")


def worktree(commit: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="hall-before-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(path), commit], cwd=ROOT, check=True, capture_output=True)
    if (ROOT / "node_modules").exists() and not (path / "node_modules").exists():
        (path / "node_modules").symlink_to(ROOT / "node_modules")  # the editor's files, for collectstatic
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--idle", type=float, default=40.0, help="seconds of waiting measured (keep-alives: 15-30 s)")
    parser.add_argument("--before", metavar="COMMIT", help="also run this commit's code, in turn with this tree's")
    parser.add_argument("--rounds", type=int, default=1, help="with --before: how many times each, in turn")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds, per phase")
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--port", type=int, default=8093)
    parser.add_argument("--database", default="judge_bench_hall")
    parser.add_argument("--redis-db", type=int, default=13)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # the streams' sockets, here and in the web server
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.streams + 1024)), hard))
    redis_url = f"redis://127.0.0.1:6379/{args.redis_db}"
    var = ROOT / "var" / "bench-hall"
    sites = [Site("after", ROOT, args.database, args.port, redis_url, var / "after")]
    before_tree = None
    try:
        if args.before:
            before_tree = worktree(args.before)
            sites.insert(
                0,
                Site(
                    f"before ({args.before})",
                    before_tree,
                    args.database + "_before",
                    args.port,
                    redis_url,
                    var / "before",
                ),
            )
        results: dict[str, list[dict]] = {site.label: [] for site in sites}
        for _ in range(args.rounds if args.before else 1):
            for site in sites:
                results[site.label].append(run_site(site, args))
    finally:
        if before_tree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(before_tree)], cwd=ROOT, check=False)
            shutil.rmtree(before_tree, ignore_errors=True)
    report(results, args)


if __name__ == "__main__":
    main()
