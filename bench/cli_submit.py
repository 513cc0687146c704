"""``npjudge submit`` from start to verdict: the wall time of the whole command, process start included.

Starts the same stack as bench/classroom.py (gunicorn, a grading worker, the maintenance worker, PostgreSQL
and Redis on 127.0.0.1, the Docker sandbox when it is there), gives one student a token, and runs
``npjudge submit`` on the reference solution ``--runs`` times, one after another, timing each command from
its start to its exit (the verdict printed). Target on an idle machine: p50 <= 400 ms.

    .venv/bin/python bench/cli_submit.py [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom import PYTHON, bring_up, codes_for, make_stack, pct


def time_submits(env: dict, folder: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            [PYTHON, "-m", "npjudge.cli", "submit", "solution.py"],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"npjudge submit exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--problem", default="prepend_class_token")
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--database", default="judge_bench_cli")
    parser.add_argument("--redis-db", type=int, default=14)
    args = parser.parse_args()
    args.students, args.concurrency = 1, 2
    if not 1 <= args.runs <= 200:
        parser.error("--runs must be 1-200")
    stack = make_stack(args)
    stack.env |= {"RATE_LIMIT_RUN": "0", "RATE_LIMIT_SUBMIT": "0"}  # one student submits back to back here
    try:
        bring_up(stack, args)
        token = stack.django("""
import json
from django.contrib.auth import get_user_model
from judge.tokens.services import create_token
print(json.dumps({"token": create_token(get_user_model().objects.get(username="student000"), "bench",
                                        ["read", "submit"])[1]}))
""")["token"]
        with tempfile.TemporaryDirectory() as folder:
            env = os.environ | {"NPJUDGE_SERVER": stack.url, "NPJUDGE_TOKEN": token, "NPJUDGE_CONFIG_DIR": folder}
            (Path(folder) / "problem.json").write_text(f'{{"slug": "{args.problem}"}}')
            (Path(folder) / "solution.py").write_text(codes_for(args.problem)["correct"])
            time_submits(env, Path(folder), 3)  # warm the sandboxes
            times = time_submits(env, Path(folder), args.runs)
    finally:
        stack.stop()
    print(f"\n## `npjudge submit` start -> verdict printed, {args.runs} runs, load average {os.getloadavg()[0]:.1f}\n")
    print(
        f"p50 {pct(times, 50) * 1000:.0f} ms, p95 {pct(times, 95) * 1000:.0f} ms, "
        f"mean {statistics.mean(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms"
    )
    print(f"Target p50 <= 400 ms: {'met' if pct(times, 50) <= 0.4 else 'MISSED'}.")


if __name__ == "__main__":
    main()
