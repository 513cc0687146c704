"""Where a speed figure's noise between measurements comes from: the same solution measured again and again in
the Docker sandbox (a pool of two containers, as the speed worker keeps), under several conditions taken in
turn, so that every condition sees the same moments of the machine's load.

Each measurement is ``engine.speed.measure_speed`` with every repeat kept (no early stop), the subject of
``bench/speed_stability.py`` against ``layer_norm``'s reference.  Conditions:

  - ``staged``: as the judge does (the inputs sent once per measurement, kept by each container's zygote);
  - ``unstaged``: the inputs sent with every job (each child reads them from its own frame);
  - ``cpu0``: staged, with both containers held to CPU 0 (their cpuset) during the measurement.

Printed per condition: the spread of the figures between measurements (sd of the log ratio) for several
estimators computed from the same repeats (the judge's ``engine.speed.figure``; each side's minimum over the
repeats after the first, over all of them, over the first 3 and 4; each side's lower quartile; the median and
the trimmed mean of the paired ratios), beside the same estimator's spread when the repeats are resampled
within each measurement (what the repeats alone explain), and each measurement's minima per side.
Also the CPU per measurement: the containers' cgroups and this process (the judge's side).
``--save`` writes every measurement's pairs (student, reference ms per call) as JSON.

    .venv/bin/python bench/speed_noise.py [--measurements 12] [--repeats 6] [--conditions staged,unstaged,cpu0] [--save F]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.grading_cpu import CGROUP  # noqa: E402
from bench.speed_stability import SUBJECT  # noqa: E402
from engine import speed  # noqa: E402
from engine.package import load_package  # noqa: E402
from engine.speed import BENCH_DRAWS, build_benchmark, measure_speed  # noqa: E402
from engine.testset import build_cases  # noqa: E402


def lowest(values: list[float], q: float = 0.0) -> float:
    return speed._quantile(values, q)


def trimmed(pairs: list[tuple[float, float]]) -> float:
    """The mean log ratio of the pairs, the highest and lowest left out from five pairs on."""
    logs = sorted(math.log(s / r) for s, r in pairs)
    return math.exp(statistics.fmean(logs[1:-1] if len(logs) >= 5 else logs))


FIGURE = speed.figure  # the judge's own, kept before main() wraps it
ESTIMATORS = {
    "the judge's figure": lambda p: FIGURE(p).precise,
    "min after the 1st, 3": lambda p: lowest([s for s, _ in p[1:4]]) / lowest([r for _, r in p[1:4]]),
    "min after the 1st, 4": lambda p: lowest([s for s, _ in p[1:5]]) / lowest([r for _, r in p[1:5]]),
    "min after the 1st, 5": lambda p: lowest([s for s, _ in p[1:6]]) / lowest([r for _, r in p[1:6]]),
    "min of all": lambda p: lowest([s for s, _ in p]) / lowest([r for _, r in p]),
    "min of first 3": lambda p: lowest([s for s, _ in p[:3]]) / lowest([r for _, r in p[:3]]),
    "min of first 4": lambda p: lowest([s for s, _ in p[:4]]) / lowest([r for _, r in p[:4]]),
    "lower quartile": lambda p: lowest([s for s, _ in p], 0.25) / lowest([r for _, r in p], 0.25),
    "median of pairs": lambda p: statistics.median(s / r for s, r in p),
    "median of pairs 3": lambda p: statistics.median(s / r for s, r in p[:3]),
    "median of pairs 4": lambda p: statistics.median(s / r for s, r in p[:4]),
    "median of pairs 5": lambda p: statistics.median(s / r for s, r in p[:5]),
    "trimmed log mean": trimmed,
    "trimmed log mean 4": lambda p: trimmed(p[:4]),
    "trimmed log mean 5": lambda p: trimmed(p[:5]),
}


def pin(sandbox, containers, cpus: str) -> None:
    import docker

    for container in containers:
        try:
            sandbox.client.api.update_container(container.id, cpuset_cpus=cpus)
        except docker.errors.NotFound:  # recycled meanwhile (every 200 jobs)
            pass


def container_cpu_ms(containers) -> float:
    """The CPU the containers' cgroups have used (ms); each container once, a removed one not at all."""
    total = 0
    for container_id in {c.id for c in containers}:
        try:
            total += int((CGROUP / container_id / "cpuacct.usage").read_text())
        except (OSError, ValueError):
            continue
    return total / 1e6


def log_sd(values: list[float]) -> float:
    return statistics.stdev(math.log(v) for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measurements", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--conditions", default="staged,unstaged,cpu0")
    parser.add_argument("--save", help="write every measurement's pairs to this JSON file")
    args = parser.parse_args()
    from sandbox.backends.docker import DockerSandbox

    package = load_package(ROOT / "problems" / "layer_norm")
    conditions = args.conditions.split(",")
    seen: list[list[tuple[float, float]]] = []
    make_figure, time_calls = speed.figure, speed.time_calls

    def keep(pairs):
        seen.append(list(pairs))
        return make_figure(pairs)

    speed.figure = keep
    unstaged = False

    def timing(sandbox, code, spec, cases, solved=None, digest=False, stage=None):
        return time_calls(sandbox, code, spec, cases, solved, digest, None if unstaged else stage)

    speed.time_calls = timing
    pairs: dict[str, list[list[tuple[float, float]]]] = {c: [] for c in conditions}
    cpu: dict[str, list[tuple[float, float]]] = {c: [] for c in conditions}  # (containers, this process) ms
    loads = [os.getloadavg()[0]]
    sandbox = DockerSandbox(image=os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest"), pool_size=2)
    with sandbox:
        sandbox.wait_until_full()
        draws = build_benchmark(package, sandbox, list(range(7001, 7001 + BENCH_DRAWS)), build_cases(package, sandbox))
        started = time.monotonic()
        for _ in range(args.measurements):
            for condition in random.sample(conditions, len(conditions)):
                unstaged = condition == "unstaged"
                ready = sandbox.ready_containers()  # settled: the last measurement's cleanup is counted there
                containers = ready if condition == "cpu0" else []
                pin(sandbox, containers, "0")
                cgroups, judge = container_cpu_ms(ready), time.process_time()
                try:
                    measure_speed(SUBJECT, package.solution, package.spec(), draws, sandbox, repeats=args.repeats)
                finally:
                    pin(sandbox, containers, f"0-{os.cpu_count() - 1}")
                cpu[condition].append(
                    (
                        container_cpu_ms([*ready, *sandbox.ready_containers()]) - cgroups,
                        (time.process_time() - judge) * 1000,
                    )
                )
                pairs[condition].append(seen[-1])
            loads.append(os.getloadavg()[0])
    print(
        f"{args.measurements} measurements per condition, {args.repeats} repeats each, {len(draws)} draws; "
        f"{time.monotonic() - started:.0f} s; load {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs"
    )
    if args.save:
        Path(args.save).write_text(json.dumps(pairs))
    rng = random.Random(1)
    for condition, every in pairs.items():
        print(
            f"\n{condition}: CPU per measurement, median: containers "
            f"{statistics.median(c for c, _ in cpu[condition]):.0f} ms, the judge (this process) "
            f"{statistics.median(j for _, j in cpu[condition]):.0f} ms"
        )
        measured = [p for p in every if len(p) >= 2]
        for name, estimate in ESTIMATORS.items():
            figures = [estimate(p) for p in measured]
            resampled = [estimate([rng.choice(p) for _ in p]) for p in measured for _ in range(20)]
            within = statistics.fmean(
                log_sd([estimate([rng.choice(p) for _ in p]) for _ in range(40)]) for p in measured
            )
            print(
                f"  {name:<16} between measurements {log_sd(figures):.3f} (figures {min(figures):.3f}-"
                f"{max(figures):.3f}, median {statistics.median(figures):.3f}); resampled within {within:.3f}"
                f" [{log_sd(resampled):.3f}]"
            )
        print(
            "  sides' minima per measurement (student / reference ms): "
            + ", ".join(f"{min(s for s, _ in p):.2f}/{min(r for _, r in p):.2f}" for p in measured)
        )


if __name__ == "__main__":
    main()
