"""A lecture hall waiting for its verdicts: open status streams, page latency meanwhile, verdict delivery.

Starts the web server as compose does (gunicorn with deploy/gunicorn.conf.py: uvicorn workers,
``judge.asgi``; PostgreSQL and Redis already running on this machine), in a database and a Redis db of
its own, with one problem and ``--accounts`` students.  No grading worker runs: the submissions the
streams wait on are stored as queued, and the benchmark itself plays the worker for a sample of them
(claim, record the verdict, publish on Redis, as ``services`` does), noting when each verdict was recorded.

Then, with asyncio on 127.0.0.1 only:

1. opens ``--streams`` status streams (server-sent events), each as a page would (session cookie,
   ``?shown=queued``), and keeps them open;
2. measures the problem page and the leaderboard (``--page-clients`` clients, ``--page-requests`` each)
   while every stream is open;
3. records ``--verdicts`` verdicts, one every 100 ms, and measures when each reaches its stream;
4. reads the web processes' memory before and after the streams opened: memory per waiting page.

    .venv/bin/python bench/lecture_hall.py --streams 2000

Targets (issue 19, 2-core machine): 2,000 streams open, page p95 <= 150 ms, verdict delivery p95 <= 500 ms.
Stops by itself: every phase is bounded (--timeout per phase); the stack is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.classroom import Stack, make_stack

TARGETS = {"page_p95_ms": 150.0, "delivery_p95_ms": 500.0}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def bring_up(stack: Stack, args) -> dict:
    import subprocess
    import urllib.request

    import redis

    subprocess.run(["psql", "-q", "-h", "127.0.0.1", "-U", "postgres", "-c", f"DROP DATABASE IF EXISTS {args.database}",
                    "-c", f"CREATE DATABASE {args.database}"], check=True)
    redis.Redis.from_url(stack.env["CELERY_BROKER_URL"]).flushdb()
    stack.manage("migrate", "--noinput", "-v0")
    stack.manage("collectstatic", "--noinput", "-v0")
    print(stack.manage("sync_problems", args.problem).strip(), flush=True)
    made = stack.django(f"""
import json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from importlib import import_module
from judge.problems.models import Problem
from judge.submissions.models import Submission
User = get_user_model()
problem = Problem.objects.get(slug={args.problem!r})
store = import_module(settings.SESSION_ENGINE).SessionStore
cookies, submissions = [], []
for i in range({args.accounts}):
    user = User.objects.create_user(f"hall{{i:04d}}", password="lecture hall pass phrase")
    session = store()
    session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(user.pk), "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    cookies.append(session.session_key)
rows = [Submission(user_id=User.objects.get(username=f"hall{{i % {args.accounts}:04d}}").pk, problem=problem,
                   test_set=problem.current_test_set, code="x = 1") for i in range({args.streams})]
pks = [s.pk for s in Submission.objects.bulk_create(rows)]
print(json.dumps({{"cookies": cookies, "pks": pks, "cookie_name": settings.SESSION_COOKIE_NAME}}))
""")
    stack.start("web", sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "judge.asgi")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(stack.url + "/accounts/login/", timeout=2)
            return made
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the web server did not answer; see {stack.logs}/web.log")


def web_memory_kib(stack: Stack) -> int:
    """Resident memory of gunicorn's master and its worker processes."""
    master = stack.processes[0].pid
    total = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if int(fields["Pid"]) == master or int(fields["PPid"]) == master:
            total += int(fields.get("VmRSS", "0 kB").split()[0])
    return total


class StreamClient:
    """One page's EventSource: the time each status event arrived."""

    def __init__(self, port: int, pk: int, cookie: str) -> None:
        self.port, self.pk, self.cookie = port, pk, cookie
        self.opened = asyncio.Event()
        self.events: list[tuple[str, float]] = []
        self.failed = ""

    async def run(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(f"GET /submissions/{self.pk}/events/?shown=queued HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Cookie: {self.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status_line = await reader.readline()
            if b" 200 " not in status_line:
                self.failed = status_line.decode(errors="replace").strip() or "closed"
                return
            self.opened.set()
            while line := await reader.readline():
                if line.startswith(b"data: "):
                    self.events.append((line[6:].strip().decode(), time.time()))
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.failed = type(exc).__name__
        finally:
            self.opened.set()


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


async def page_latencies(args, cookie: str) -> tuple[list[float], int]:
    paths = [f"/problems/{args.problem}/", "/leaderboard/"]
    times, errors = [], 0

    async def client(i: int) -> None:
        nonlocal errors
        for j in range(args.page_requests):
            try:
                times.append(await timed_get(args.port, paths[(i + j) % 2], cookie))
            except (OSError, RuntimeError):
                errors += 1

    await asyncio.wait_for(asyncio.gather(*(client(i) for i in range(args.page_clients))), args.timeout)
    return times, errors


async def play_the_worker(stack: Stack, pks: list[int]) -> dict[int, float]:
    """Record a verdict for each submission, one every 100 ms, as a worker does; when each was recorded."""
    code = f"""
import json, time
from engine.grading import GradeReport
from engine.verdicts import Verdict
from judge.submissions import push
from judge.grading import recording
from judge.submissions.services import claims
from judge.submissions.models import Status
for pk in {pks!r}:
    token = claims.claim_submission(pk)
    recording.record_verdict(pk, token, GradeReport(Verdict.ACCEPTED))
    recorded = time.time()
    push.publish_status(pk, Status.DONE)
    print(json.dumps([pk, recorded]), flush=True)
    time.sleep(0.1)
"""
    process = await asyncio.create_subprocess_exec(sys.executable, "manage.py", "shell", "-c", code, cwd=stack.env["PYTHONPATH"], env=stack.env, stdout=asyncio.subprocess.PIPE)
    recorded = {}
    while line := await process.stdout.readline():
        if line.startswith(b"["):
            pk, at = json.loads(line)
            recorded[pk] = at
    await process.wait()
    return recorded


async def measure(stack: Stack, args, made: dict) -> dict:
    cookie_of = [f"{made['cookie_name']}={key}" for key in made["cookies"]]
    pks = made["pks"]
    idle_pages, _ = await page_latencies(args, cookie_of[0])
    clients = [StreamClient(args.port, pk, cookie_of[i % len(cookie_of)]) for i, pk in enumerate(pks)]
    tasks, warm_kib = [], 0
    for start in range(0, len(clients), 100):  # 100 at a time, as a hall's pages load over a few seconds
        batch = clients[start:start + 100]
        tasks += [asyncio.ensure_future(c.run()) for c in batch]
        await asyncio.wait_for(asyncio.gather(*(c.opened.wait() for c in batch)), args.timeout)
        if start == 0:  # the memory of a warm process (templates, the hub): what each further stream adds
            await asyncio.sleep(1)
            warm_kib = web_memory_kib(stack)
    opened = sum(1 for c in clients if not c.failed)
    await asyncio.sleep(2)
    open_kib = web_memory_kib(stack)
    busy_pages, page_errors = await page_latencies(args, cookie_of[0])
    sample = pks[:: max(1, len(pks) // args.verdicts)][: args.verdicts]
    recorded = await asyncio.wait_for(play_the_worker(stack, sample), args.timeout)
    await asyncio.sleep(2)
    by_pk = {c.pk: c for c in clients}
    delivery = [(next((at for status, at in by_pk[pk].events if status == "done"), None), recorded[pk])
                for pk in recorded]
    for task in tasks:
        task.cancel()
    return {
        "streams": len(pks), "opened": opened, "failed": sorted({c.failed for c in clients if c.failed}),
        "idle_page_p50_ms": pct(idle_pages, 0.5), "idle_page_p95_ms": pct(idle_pages, 0.95),
        "page_p50_ms": pct(busy_pages, 0.5), "page_p95_ms": pct(busy_pages, 0.95), "page_errors": page_errors,
        "page_requests": len(busy_pages),
        "delivered": sum(1 for got, _ in delivery if got is not None), "verdicts": len(delivery),
        "delivery_p50_ms": pct([(got - at) * 1000 for got, at in delivery if got is not None], 0.5),
        "delivery_p95_ms": pct([(got - at) * 1000 for got, at in delivery if got is not None], 0.95),
        "web_rss_warm_mib": warm_kib / 1024, "web_rss_open_mib": open_kib / 1024,
        "kib_per_stream": (open_kib - warm_kib) / max(1, opened - 100),
    }


def report(result: dict, args) -> None:
    ok = (result["opened"] == result["streams"] and result["page_p95_ms"] <= TARGETS["page_p95_ms"]
          and result["delivery_p95_ms"] <= TARGETS["delivery_p95_ms"] and result["delivered"] == result["verdicts"])
    print(f"\nLecture hall: {result['streams']} status streams, {args.workers} uvicorn worker processes, "
          f"load average {Path('/proc/loadavg').read_text().split()[0]}")
    print("| what | figure | target |")
    print("| --- | --- | --- |")
    print(f"| streams open at once | {result['opened']} of {result['streams']} | 2,000 |")
    print(f"| problem page + leaderboard, no streams: p50 / p95 | {result['idle_page_p50_ms']:.0f} / "
          f"{result['idle_page_p95_ms']:.0f} ms | |")
    print(f"| the same with every stream open: p50 / p95 ({result['page_requests']} requests, "
          f"{result['page_errors']} errors) | {result['page_p50_ms']:.0f} / {result['page_p95_ms']:.0f} ms | p95 <= 150 ms |")
    print(f"| verdict recorded -> event on its stream: p50 / p95 ({result['delivered']} of {result['verdicts']}) "
          f"| {result['delivery_p50_ms']:.0f} / {result['delivery_p95_ms']:.0f} ms | p95 <= 500 ms |")
    print(f"| web processes' memory: 100 streams -> all open | {result['web_rss_warm_mib']:.0f} -> "
          f"{result['web_rss_open_mib']:.0f} MiB | |")
    print(f"| memory per waiting page | {result['kib_per_stream']:.1f} KiB | |")
    if result["failed"]:
        print(f"streams that failed: {result['failed']}")
    print("targets met" if ok else "TARGETS NOT MET")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--accounts", type=int, default=100)
    parser.add_argument("--verdicts", type=int, default=100)
    parser.add_argument("--page-clients", type=int, default=4)
    parser.add_argument("--page-requests", type=int, default=50)
    parser.add_argument("--workers", type=int, default=3, help="web processes (GUNICORN_WORKERS; compose: 3)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds, per phase")
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--port", type=int, default=8093)
    parser.add_argument("--database", default="judge_bench_hall")
    parser.add_argument("--redis-db", type=int, default=13)
    args = parser.parse_args()
    args.students, args.concurrency = 0, 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # the streams' sockets, here and in the web server
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.streams + 1024)), hard))
    stack = make_stack(args)
    stack.env |= {"GUNICORN_WORKERS": str(args.workers), "GUNICORN_BIND": f"127.0.0.1:{args.port}"}
    stack.logs = Path(stack.env["JUDGE_VAR_DIR"])
    try:
        made = bring_up(stack, args)
        result = asyncio.run(measure(stack, args, made))
    finally:
        stack.stop()
    report(result, args)


if __name__ == "__main__":
    main()
