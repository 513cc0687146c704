"""Sandbox latency and throughput: warm pool vs `docker exec` vs `docker run`, per submission.

Grades the same correct prepend_class_token submission through

  (a) the warm pool (DockerSandbox: a zygote already running in a hardened container),
      over its Unix socket (the default), and for comparison over the attach stream,
  (b) `docker exec` per submission (a hardened container stays up; every submission
      execs a fresh zygote in it, over the Engine API, so no CLI start-up is counted),
  (c) `docker run` per submission (a fresh hardened container per submission: create,
      attach, start, NumPy import, the job, removal),

each with two job sizes: one tiny test (the transport and fork cost alone) and the
problem's full 13-test case set (one argument has 100k elements).  Prints p50/p95
of the sandbox round trip, submissions per second (one worker, back to back, the
result checked by the judge as a worker does), and the ratios.

    .venv/bin/python bench/sandbox_latency.py [--runs 300] [--slow-runs 20] [--image judge-sandbox:latest]

With ``--before REF`` it compares instead, side by side in one run: a sandbox image is built from the
``sandbox/`` of each tree (``REF``, exported with ``git archive``, and this checkout; ``sandbox/image/build.sh``,
as ``bench/grading_cpu.py`` does), and only the warm pool is measured, both ways (back to back and 10 ms apart)
for both job sizes, the sides alternating in ``--rounds`` rounds so that a change in the machine's load falls on
both.  It prints each side's median over the rounds, the ratio after / before, and the load average.  The pool
(the judge's side, ``sandbox/backends/``) is this checkout's on both sides: the zygote in the image is what differs.

    .venv/bin/python bench/sandbox_latency.py --before main [--runs 300] [--rounds 3]

Needs a running Docker engine and the sandbox image (scripts/ensure-docker.sh,
sandbox/image/build.sh).  Figures depend on the machine and its load: run it on
an idle machine.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

import numpy as np  # noqa: E402

from engine.grading import interpret  # noqa: E402
from engine.package import load_package  # noqa: E402
from engine.spec import Case  # noqa: E402
from engine.testset import build_cases  # noqa: E402
from sandbox.backends.base import Job, JobRun, JobTest  # noqa: E402
from sandbox.backends.docker import DemuxChannel, DockerSandbox, _remove  # noqa: E402

SLUG = "prepend_class_token"


def npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def tiny_cases() -> list[Case]:
    patches = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    token = np.full((1, 1, 4), -1.0)
    expected = np.concatenate([np.broadcast_to(token, (2, 1, 4)), patches], axis=1)
    return [Case("tiny", False, {"patches": npy(patches), "cls_token": npy(token)}, npy(expected))]


def job_for(code: str, spec, cases: list[Case]) -> Job:
    return Job(
        code,
        spec.function,
        spec.params,
        [JobTest(c.name, c.inputs) for c in cases],
        spec.time_limit_s,
        spec.memory_mb,
        spec.max_output_bytes,
    )


class ExecPerSubmission:
    """One hardened container that only sleeps; each submission execs a fresh zygote in it."""

    def __init__(self, pool: DockerSandbox) -> None:
        self.pool = pool
        api = pool.client.api
        self.child_uid = random.randrange(200_000, 2_000_000_000)
        self.id = api.create_container(
            pool.image, command=["sleep", "infinity"], user="0", host_config=pool.host_config(), network_disabled=True
        )["Id"]
        api.start(self.id)

    def run(self, job: Job) -> JobRun:
        api = self.pool.client.api
        exec_id = api.exec_create(
            self.id, self.pool.command(self.child_uid), stdin=True, stdout=True, stderr=False, user="0"
        )["Id"]
        response = api.exec_start(exec_id, socket=True)
        sock = getattr(response, "_sock", response)
        try:
            return DemuxChannel(sock).run_job(job)
        finally:
            sock.close()  # end of its stdin: the zygote exits

    def close(self) -> None:
        _remove(self.pool.client, self.id)


def run_per_submission(pool: DockerSandbox, job: Job) -> JobRun:
    container = pool.start_container()
    try:
        return container.channel.run_job(job)
    finally:
        container.close()


def containers_cpu_ns() -> int | None:
    """CPU time all Docker containers have used, removed ones included (cgroup v1's docker group)."""
    try:
        return int(Path("/sys/fs/cgroup/cpuacct/docker/cpuacct.usage").read_text())
    except (OSError, ValueError):
        return None


def pool_cpu_ns(pool: DockerSandbox) -> Callable[[], int | None]:
    """A reader of the CPU time the pool's own containers have used (other sessions' containers left out);
    None when the pool's containers changed between two readings (one was recycled)."""
    first: set[str] = set()

    def read() -> int | None:
        ids = {container.id for container in pool.ready_containers()}
        first.update(() if first else ids)
        try:
            if ids != first:
                return None
            return sum(int(Path(f"/sys/fs/cgroup/cpuacct/docker/{cid}/cpuacct.usage").read_text()) for cid in ids)
        except (OSError, ValueError):
            return None

    return read


def measure(
    label: str,
    runs: int,
    submit: Callable[[], JobRun],
    cases: list[Case],
    spec,
    gap_s: float = 0.0,
    cpu_ns: Callable[[], int | None] = containers_cpu_ns,
) -> dict:
    submit()  # warm caches
    latencies = []
    cpu_before = cpu_ns()
    started = time.perf_counter()
    for _ in range(runs):
        time.sleep(gap_s)
        began = time.perf_counter()
        result = submit()
        latencies.append((time.perf_counter() - began) * 1000)
        verdict = interpret(result.events, spec, cases).verdict
        if verdict != "accepted":
            raise SystemExit(f"{label}: the reference was graded {verdict}")
    wall = time.perf_counter() - started - runs * gap_s
    cpu_after = cpu_ns()
    cpu_ms = (cpu_after - cpu_before) / runs / 1e6 if None not in (cpu_before, cpu_after) else None
    return {
        "label": label,
        "runs": runs,
        "p50": percentile(latencies, 0.5),
        "p95": percentile(latencies, 0.95),
        "per_s": runs / wall,
        "cpu_ms": cpu_ms,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="submissions through the warm pool per case set")
    parser.add_argument("--slow-runs", type=int, default=20, help="submissions per case set for exec and run")
    parser.add_argument("--image", default=os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest"))
    parser.add_argument("--socket-dir", default=str(ROOT / "var" / "sandbox-sockets"))
    parser.add_argument("--before", default=None, metavar="REF", help="compare the warm pool with this git ref's")
    parser.add_argument("--rounds", type=int, default=3, help="with --before: rounds per side, alternating")
    options = parser.parse_args()

    package = load_package(ROOT / "problems" / SLUG)
    spec = package.spec()
    code = (ROOT / "problems" / SLUG / "solution.py").read_text()
    if options.before:
        compare(options, package, spec, code)
        return
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; image {options.image}")
    with (
        DockerSandbox(image=options.image, pool_size=2, socket_dir=options.socket_dir) as pool,
        DockerSandbox(image=options.image, pool_size=1, socket_dir=None) as attached,
    ):
        pool.wait_until_full()
        attached.wait_until_full()
        full = build_cases(package, pool)
        exec_box = ExecPerSubmission(pool)
        try:
            rows = []
            for name, cases in (("1 tiny test", tiny_cases()), (f"full set, {len(full)} tests", full)):
                job = job_for(code, spec, cases)
                rows.append(
                    (
                        name,
                        [
                            measure("(a) warm pool", options.runs, lambda job=job: pool.run(job), cases, spec),
                            # A worker does database work between submissions; the zygote uses such gaps.
                            measure(
                                "(a) 10 ms apart", options.runs, lambda job=job: pool.run(job), cases, spec, gap_s=0.01
                            ),
                            measure("(a) attach stream", options.runs, lambda job=job: attached.run(job), cases, spec),
                            measure(
                                "(b) docker exec", options.slow_runs, lambda job=job: exec_box.run(job), cases, spec
                            ),
                            measure(
                                "(c) docker run",
                                options.slow_runs,
                                lambda job=job: run_per_submission(pool, job),
                                cases,
                                spec,
                            ),
                        ],
                    )
                )
        finally:
            exec_box.close()
    print_table(rows)


WARM_MODES = (("back to back", 0.0), ("10 ms apart", 0.01))


def compare(options, package, spec, code: str) -> None:
    """The warm pool with each side's image, alternating sides round by round; medians and ratios."""
    from bench.grading_cpu import build_image, export_tree

    with tempfile.TemporaryDirectory(prefix="sandbox-latency-") as scratch:
        trees = {"before": export_tree(options.before, Path(scratch)), "after": ROOT}
        images = {side: build_image(tree) for side, tree in trees.items()}
    print(f"machine: {os.cpu_count()} CPUs; before = {options.before} ({images['before']}), after = {images['after']}")
    results: dict[tuple[str, str, str], list[dict]] = {}
    loads = []
    full: list[Case] | None = None
    for round_ in range(options.rounds):
        for side in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
            # No container is recycled for its age during a row, so that their cgroups count all of it.
            with DockerSandbox(
                image=images[side], pool_size=2, socket_dir=options.socket_dir, max_jobs=1_000_000
            ) as pool:
                pool.wait_until_full()
                full = full or build_cases(package, pool)
                for name, cases in (("1 tiny test", tiny_cases()), (f"full set, {len(full)} tests", full)):
                    job = job_for(code, spec, cases)
                    for mode, gap in WARM_MODES:
                        loads.append(os.getloadavg()[0])
                        result = measure(
                            mode, options.runs, partial(pool.run, job), cases, spec, gap, pool_cpu_ns(pool)
                        )
                        results.setdefault((name, mode, side), []).append(result)
                        print(
                            f"round {round_ + 1} {side:<6} {name:<20} {mode:<12} p50 {result['p50']:6.2f} ms, "
                            f"CPU {result['cpu_ms'] or 0:6.2f} ms/subm, load {loads[-1]:.2f}",
                            flush=True,
                        )
    print(
        f"\n## Warm pool, before ({options.before}) and after, {options.runs} submissions per row and round, median "
        f"of {options.rounds} rounds; load average {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} CPUs\n"
    )
    print(
        "| job | submitted | p50 ms before / after | p95 ms before / after | CPU ms/subm before / after | ratio p50, CPU |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name in dict.fromkeys(key[0] for key in results):
        for mode, _ in WARM_MODES:
            before, after = (
                {
                    key: statistics.median(r[key] or 0.0 for r in results[(name, mode, side)])
                    for key in ("p50", "p95", "cpu_ms")
                }
                for side in ("before", "after")
            )
            print(
                f"| {name} | {mode} | {before['p50']:.2f} / {after['p50']:.2f} | {before['p95']:.2f} / {after['p95']:.2f} "
                f"| {before['cpu_ms']:.2f} / {after['cpu_ms']:.2f} | {after['p50'] / before['p50']:.2f}, "
                f"{after['cpu_ms'] / before['cpu_ms'] if before['cpu_ms'] else float('nan'):.2f} |"
            )
    print("CPU ms/subm: the pool's two containers' CPU (their cgroups) over the row, per submission: the zygote, its")
    print("template and the children, forked ahead or not; each container has a one-CPU quota.")


def print_table(rows) -> None:
    print(
        f"{'case set':<22} {'path':<17} {'runs':>5} {'p50 ms':>9} {'p95 ms':>9} {'subm/s':>8} "
        f"{'p50 vs (a)':>11} {'(a) subm/s ÷ this':>18} {'CPU ms/subm':>12}"
    )
    for name, results in rows:
        warm = results[0]
        for result in results:
            cpu = f"{result['cpu_ms']:.2f}" if result.get("cpu_ms") is not None else "-"
            print(
                f"{name:<22} {result['label']:<17} {result['runs']:>5} {result['p50']:>9.2f} {result['p95']:>9.2f} "
                f"{result['per_s']:>8.1f} {result['p50'] / warm['p50']:>10.1f}x {warm['per_s'] / result['per_s']:>17.1f}x"
                f" {cpu:>12}"
            )
    print("p50/p95: the sandbox round trip of one submission; subm/s: one worker, back to back, checks included")
    print("(for '10 ms apart', subm/s leaves the gaps out). CPU ms/subm: what the containers used per submission")
    print("(zygote, template, children and their page faults; for (c) also NumPy's import); each has a one-CPU quota.")
    print(
        "warm pool vs docker run, throughput: "
        + ", ".join(f"{name}: {r[0]['per_s'] / r[-1]['per_s']:.0f}x" for name, r in rows)
    )


if __name__ == "__main__":
    main()
