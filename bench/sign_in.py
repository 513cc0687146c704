"""A class signs in at once: sign-in latency with the production password hash (Argon2id).

Starts gunicorn with deploy/gunicorn.conf.py on 127.0.0.1 (the production settings: no test profile, so
the production hasher and the sign-in limits, counters in Redis) against a database and a Redis db of its
own, with N students whose passwords are Argon2id hashes at the configured cost.  Then N threads, each a
student with its own cookies, arrive spread evenly over --window seconds: load the login page, post the
password (timed: the sign-in), follow the redirect to the problem list (timed with it).  Prints the cost of
one hash here, the sign-in p50/p95/max, when the last student was in, and the errors, with the target
(issue 18: 300 students within 60 s, p95 <= 1 s).

Then --burst more students (50 by default; 0 for none) post their passwords at the same instant, as a class
does when the teacher says "sign in now": their p50/p95/max and the web processes' CPU per sign-in (Argon2id
plus the request), read from /proc, with the time the burst needs at best on this machine's cores.  The burst
has no target of its own; it shows what the steady target costs when the arrivals are not spread.

    .venv/bin/python bench/sign_in.py --students 300 --window 60 --burst 50

Stops by itself: the window plus at most --timeout seconds for the last sign-ins, then gunicorn is stopped.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PASSWORD = "a class pass phrase 42"
TARGET_P95_S = 1.0


def stack_env(args) -> dict:
    url = f"redis://127.0.0.1:6379/{args.redis_db}"
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_TEST"}  # the production hasher, not the tests'
    return env | {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.database}",
        "CELERY_BROKER_URL": url,
        "REDIS_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": "sign-in-benchmark-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "JUDGE_VAR_DIR": str(ROOT / "var" / "bench-sign-in"),
        "GUNICORN_BIND": f"127.0.0.1:{args.port}",
        "DATABASE_POOL_MAX": "12",
        "PYTHONPATH": str(ROOT),
        "LOG_LEVEL": "WARNING",
        "JUDGE_PLAIN_HTTP": "1",  # gunicorn on 127.0.0.1 without a TLS proxy
    }


def manage(env: dict, *args: str) -> str:
    done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, text=True, capture_output=True, check=False)
    if done.returncode:
        raise SystemExit(f"manage.py {args[0]} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    return done.stdout


WARM = 6  # sign-ins before the burst, so its figures are not the web processes' first requests

SETUP = """
import json, time
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
User = get_user_model()
encoded = make_password({password!r})  # one hash for all: each sign-in still verifies it at full cost
User.objects.bulk_create([User(username=f"student{{i:03d}}", password=encoded) for i in range({students})]
                         + [User(username=f"burst{{i:03d}}", password=encoded) for i in range({burst})]
                         + [User(username=f"warm{{i}}", password=encoded) for i in range({warm})])
started, cpu = time.perf_counter(), time.process_time()
for _ in range(10):
    check_password({password!r}, encoded)
print(json.dumps({{"hasher": settings.PASSWORD_HASHERS[0], "encoded": encoded.rsplit("$", 2)[0],
                  "wall_ms": (time.perf_counter() - started) * 100, "cpu_ms": (time.process_time() - cpu) * 100}}))
"""


def bring_up(args, env: dict) -> tuple[dict, subprocess.Popen]:
    import json

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
    import redis

    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "collectstatic", "--noinput", "-v0")
    cost = json.loads(
        manage(env, "shell", "-c", SETUP.format(password=PASSWORD, students=args.students, burst=args.burst, warm=WARM))
        .strip()
        .splitlines()[-1]
    )
    logs = Path(env["JUDGE_VAR_DIR"])
    logs.mkdir(parents=True, exist_ok=True)
    web = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "judge.asgi"],
        cwd=ROOT,
        env=env,
        stdout=open(logs / "web.log", "wb"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{args.port}/accounts/login/", timeout=2).ok:
                return cost, web
        except requests.RequestException:
            time.sleep(0.5)
    os.killpg(web.pid, signal.SIGTERM)
    raise SystemExit(f"the web server did not answer; see {logs}/web.log")


def student(
    url: str, name: str, at: float, timeout: float, results: list, ready: threading.Barrier | None = None
) -> None:
    """One student: load the login page, post the password at ``at`` (or, in a burst, once every student of
    the burst has its page: ``ready``), follow the redirect to the problem list."""
    time.sleep(max(0.0, at - time.monotonic()))
    session = requests.Session()
    try:
        page = session.get(f"{url}/accounts/login/", timeout=timeout)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
        if ready is not None:
            ready.wait(timeout=timeout)
        started = time.monotonic()
        posted = session.post(
            f"{url}/accounts/login/",
            allow_redirects=False,
            timeout=timeout,
            data={"username": name, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        signed_in = time.monotonic()
        if posted.status_code != 302:
            results.append(("error", f"login {posted.status_code}"))
            return
        landing = session.get(url + posted.headers["Location"], timeout=timeout)
        if landing.status_code != 200 or "Log out" not in landing.text:
            results.append(("error", f"problem list {landing.status_code}"))
            return
        results.append(("ok", (signed_in - started, time.monotonic() - started, time.monotonic(), started)))
    except (requests.RequestException, TypeError, threading.BrokenBarrierError) as exc:
        results.append(("error", type(exc).__name__))


def web_cpu_s(web: subprocess.Popen) -> float:
    """CPU seconds (user + system) used so far by gunicorn and its workers (its process group)."""
    import psutil

    total = 0.0
    for process in psutil.process_iter(["pid"]):
        try:
            if os.getpgid(process.pid) == web.pid:
                times = process.cpu_times()
                total += times.user + times.system
        except (psutil.Error, ProcessLookupError):
            pass
    return total


def burst(url: str, web: subprocess.Popen, args) -> tuple[list, float]:
    """``args.burst`` students post their passwords at once; (results, web CPU seconds the burst used)."""
    for i in range(WARM):
        student(url, f"warm{i}", 0.0, args.timeout, [])
    results: list = []
    ready = threading.Barrier(args.burst)
    threads = [
        threading.Thread(target=student, daemon=True, args=(url, f"burst{i:03d}", 0.0, args.timeout, results, ready))
        for i in range(args.burst)
    ]
    cpu = web_cpu_s(web)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=3 * args.timeout)
    time.sleep(0.5)  # the last answers' bookkeeping
    return results, web_cpu_s(web) - cpu


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--window", type=float, default=60.0, help="arrivals spread evenly over this many seconds")
    parser.add_argument("--timeout", type=float, default=30.0, help="per request; also the wait after the window")
    parser.add_argument("--port", type=int, default=8031)
    parser.add_argument("--database", default="judge_bench_sign_in")
    parser.add_argument("--redis-db", type=int, default=13)
    parser.add_argument("--burst", type=int, default=50, help="then this many students sign in at once (0: none)")
    args = parser.parse_args()

    env = stack_env(args)
    cost, web = bring_up(args, env)
    url = f"http://127.0.0.1:{args.port}"
    results: list = []
    try:
        start = time.monotonic() + 1
        threads = [
            threading.Thread(
                target=student,
                daemon=True,
                args=(url, f"student{i:03d}", start + args.window * i / args.students, args.timeout, results),
            )
            for i in range(args.students)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.1, start + args.window + args.timeout - time.monotonic()))
        burst_results, burst_cpu = burst(url, web, args) if args.burst else ([], 0.0)
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=30)

    done = [r for kind, r in results if kind == "ok"]
    errors = [r for kind, r in results if kind == "error"]
    post, whole = [d[0] for d in done], [d[1] for d in done]
    print(
        f"hasher: {cost['hasher']} ({cost['encoded']}): one check {cost['wall_ms']:.0f} ms wall, "
        f"{cost['cpu_ms']:.0f} ms CPU"
    )
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    print(
        f"students signed in: {len(done)} of {args.students}, arriving over {args.window:.0f} s; "
        f"errors: {len(errors)} {sorted(set(errors))}"
    )
    if done:
        last = max(d[2] for d in done) - start
        print(
            f"sign-in (password posted -> redirect) p50 / p95 / max: {pct(post, 50):.3f} / {pct(post, 95):.3f} / "
            f"{max(post):.3f} s"
        )
        print(
            f"with the problem list loaded, p50 / p95 / max: {pct(whole, 50):.3f} / {pct(whole, 95):.3f} / "
            f"{max(whole):.3f} s"
        )
        met = len(done) == args.students and not errors and pct(post, 95) <= TARGET_P95_S
        print(f"the last student was in {last:.1f} s after the first arrived")
        print(
            f"target: {args.students} students within {args.window:.0f} s, p95 <= {TARGET_P95_S} s: "
            f"{'met' if met else 'MISSED'}"
        )
    if args.burst:
        report_burst(args.burst, burst_results, burst_cpu)


def report_burst(n: int, results: list, cpu_s: float) -> None:
    done = [r for kind, r in results if kind == "ok"]
    errors = [r for kind, r in results if kind == "error"]
    print(f"burst: {len(done)} of {n} signed in at once; errors: {len(errors)} {sorted(set(errors))}")
    if not done:
        return
    post = [d[0] for d in done]
    last = max(d[0] + d[3] for d in done) - min(d[3] for d in done)
    print(
        f"burst sign-in p50 / p95 / max: {pct(post, 50):.3f} / {pct(post, 95):.3f} / {max(post):.3f} s; "
        f"the last one signed in {last:.2f} s after the first posted"
    )
    print(
        f"burst web CPU: {cpu_s:.2f} s in all, {1000 * cpu_s / n:.0f} ms a student (login page, password, "
        f"problem list); "
        f"at best {cpu_s / (os.cpu_count() or 1):.2f} s for the burst on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
