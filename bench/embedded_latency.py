"""The embedded default (``bin/run``: SQLite, the file-system broker) against issue 19's section 3.

Starts ``bin/run`` itself on a free port, in a scratch var directory (its own SQLite database and broker
folder) with one problem (``--problem``, its prerequisites left out), waits for the problem to be
published, then:

1. signs a student in with headless Chromium (Debian's ``chromium``, driven by Playwright) and submits
   the reference solution ``--runs`` times, timing in the page from the click on Submit to the verdict
   on screen (the first submit of the problem is shown apart: the worker's warm-up);
2. stores ``--rejudge`` finished Submits of that solution and rejudges them all, as staff does from the
   problem's page, timing the request to the last verdict recorded.

    .venv/bin/python bench/embedded_latency.py [--runs 20] [--rejudge 100]

Targets (issue 19, an idle machine): submit -> verdict in Chromium p50 <= 300 ms; 100 rejudged <= 20 s.
Stops by itself: every wait is bounded (--timeout), and bin/run is stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import PASSWORD, codes_for, copy_problem, pct
from push_latency import CHROMIUM, measure

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"p50_s": 0.3, "rejudge_s": 20.0}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Embedded:
    """``bin/run`` in a scratch var directory, and a Django shell against the same SQLite database."""

    def __init__(self, problem: str, var: Path) -> None:
        shutil.rmtree(var, ignore_errors=True)
        var.mkdir(parents=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.var = var
        dropped = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "JUDGE_TEST", "SECRET_KEY", "DEBUG")
        self.env = {k: v for k, v in os.environ.items() if k not in dropped} | {
            "JUDGE_VAR_DIR": str(var),
            "PORT": str(self.port),
            "LOG_LEVEL": "WARNING",
            "PROBLEMS_DIR": str(copy_problem(problem, var / "problems")),
            "RATE_LIMIT_SUBMIT": "0",
            "RATE_LIMIT_RUN": "0",  # one student submits back to back here
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> float:
        """Start bin/run; the seconds until the site answers."""
        started = time.monotonic()
        log = open(self.var / "run.log", "wb")  # noqa: SIM115  (bin/run writes it until stop())
        self.process = subprocess.Popen(
            [str(ROOT / "bin" / "run")],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait_for("/accounts/login/", 180)
        return time.monotonic() - started

    def wait_for(self, path: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"bin/run exited; see {self.var}/run.log")
            try:
                urllib.request.urlopen(self.url + path, timeout=2)
                return
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"{path} did not answer within {timeout:.0f} s; see {self.var}/run.log and sync.log")

    def django(self, code: str) -> dict:
        done = subprocess.run(
            [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            text=True,
            capture_output=True,
            check=False,
        )
        if done.returncode:
            raise SystemExit(f"manage.py shell failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # bin/run's trap stops the workers and the sync
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.kill_leftovers()

    def kill_leftovers(self) -> None:
        """Anything still running on this var directory (a worker in its own session, stuck in its warm shutdown)
        goes too: a benchmark or test leaves nothing behind."""
        for pid in processes_of(self.var):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                continue


def processes_of(var: Path) -> list[int]:
    """Every live process started for this var directory (bin/run, its server, supervisors, workers, pools)."""
    marker = f"JUDGE_VAR_DIR={var}".encode()
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            pid = int(environ.parent.name)
            if pid != os.getpid() and marker in environ.read_bytes().split(b"\0"):
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(pid)
        except (OSError, ValueError, IndexError):
            continue
    return found


def browser_runs(site: Embedded, problem: str, code: str, runs: int) -> tuple[float, list[float]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(f"{site.url}/accounts/login/")
        page.fill("#id_username", "student000")
        page.fill("#id_password", PASSWORD)
        with page.expect_navigation():
            page.get_by_role("button", name="Log in").click()
        first = measure(page, site.url, problem, code, 1)[0]
        times = measure(page, site.url, problem, code, runs)
        browser.close()
    return first, times


def rejudge(site: Embedded, problem: str, code: str, count: int, timeout: float) -> dict:
    """``count`` finished Submits of ``code`` on ``problem`` in all, then a rejudge of the problem, followed to
    its last verdict; the seconds it took and what became of the batch."""
    return site.django(f"""
import json, time
from django.contrib.auth import get_user_model
from django.utils import timezone
from judge.authoring.models import RejudgeScope
from judge.authoring.services import rejudge_progress, request_rejudge
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission
problem = Problem.objects.get(slug={problem!r})
student = get_user_model().objects.get(username="student000")
staff = get_user_model().objects.create_superuser("staff", password={PASSWORD!r})
done = Submission.objects.filter(problem=problem, kind=Kind.SUBMIT, status=Status.DONE)
Submission.objects.bulk_create(Submission(
    user=student, problem=problem, test_set=problem.current_test_set, code={code!r}, kind=Kind.SUBMIT,
    status=Status.DONE, verdict="accepted", finished_at=timezone.now(), attempts=1)
    for _ in range({count} - done.count()))
started = time.monotonic()
batch = request_rejudge(staff, RejudgeScope.PROBLEM, problem)
while not rejudge_progress(batch).get("finished") and time.monotonic() - started < {timeout}:
    batch.refresh_from_db()
    time.sleep(0.1)
took = time.monotonic() - started
rows = Submission.objects.filter(pk__in=batch.submission_ids)
print(json.dumps({{"seconds": took, **rejudge_progress(batch),
                   "accepted": rows.filter(verdict="accepted", status=Status.DONE).count(),
                   "attempts_over_2": rows.filter(attempts__gt=2).count()}}))
""")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rejudge", type=int, default=100)
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds to wait for the rejudge")
    args = parser.parse_args()
    if not (1 <= args.runs <= 100 and 1 <= args.rejudge <= 500):
        parser.error("--runs must be 1-100 and --rejudge 1-500")

    code = codes_for(args.problem)["correct"]
    site = Embedded(args.problem, ROOT / "var" / "bench-embedded")
    try:
        answered = site.start()
        started = time.monotonic()
        site.wait_for(f"/problems/{args.problem}/", 300)  # published: the gate ran in the background
        published = time.monotonic() - started
        site.django(f"""
import json
from django.contrib.auth import get_user_model
get_user_model().objects.create_user("student000", password={PASSWORD!r})
print(json.dumps({{"ok": True}}))
""")
        first, times = browser_runs(site, args.problem, code, args.runs)
        server = site.django("""
import json
from judge.submissions.models import Submission
rows = Submission.objects.order_by("pk").values_list("created_at", "started_at", "finished_at")
print(json.dumps([[(s - c).total_seconds(), (f - c).total_seconds()] for c, s, f in rows]))
""")[1:]  # the browser's runs after the first
        rejudged = rejudge(site, args.problem, code, args.rejudge, args.timeout)
    finally:
        site.stop()
    print(
        f"\n## bin/run (SQLite, file-system broker), problem {args.problem}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
    )
    print("| measure | value | target |")
    print("| --- | --- | --- |")
    print(f"| bin/run until the site answers (venv ready, fresh var) | {answered:.1f} s | |")
    print(f"| then until the problem is published | {published:.1f} s | |")
    print(f"| first submit -> verdict in Chromium | {first * 1000:.0f} ms | |")
    p50 = pct(times, 50)
    print(
        f"| submit -> verdict in Chromium, p50 / p95 ({args.runs} runs) | {p50 * 1000:.0f} / "
        f"{pct(times, 95) * 1000:.0f} ms | p50 <= 300 ms: {'met' if p50 <= TARGETS['p50_s'] else 'MISSED'} |"
    )
    print(
        f"| of which the server: accepted -> claimed by the worker, -> verdict recorded, p50 | "
        f"{pct([q for q, _ in server], 50) * 1000:.0f} ms, {pct([d for _, d in server], 50) * 1000:.0f} ms | |"
    )
    ok = rejudged["finished"] and rejudged["seconds"] <= TARGETS["rejudge_s"] * args.rejudge / 100
    print(
        f"| rejudge {rejudged['total']} finished Submits, request -> last verdict | {rejudged['seconds']:.1f} s "
        f"({rejudged['done']} graded again, {rejudged['accepted']} accepted) | 100 in <= 20 s: "
        f"{'met' if ok else 'MISSED'} |"
    )


if __name__ == "__main__":
    main()
