"""Speed stability: the same code submitted again and again, while the machine's load changes, must land within
10 percentile points among the problem's accepted solutions (issue 25, section 5).

Draws the problem's benchmark (as the gate does), then

  1. measures a population of accepted solutions whose speeds spread from the reference's to a Python loop's
     (the reference with 0 to 64 extra passes over its input, a loop over rows, a loop over elements), once
     each: the other students;
  2. measures one solution (the subject: a vectorised layer norm written differently from the reference)
     ``--submits`` times, each under another load: 0 to ``--max-hogs`` busy processes started beside it;

and prints each Submit's ratio (shown rounded, compared to four figures as the site does) and percentile
(``engine.speed.percentile``, the site's own), the spread of the percentiles in points, and whether it is
within the target; beside it, the spread the same measurements give when a quarter of the repeats is left
out at each end instead of one (the figure each way, everyone's from the same pairs).

    .venv/bin/python bench/speed_stability.py [--submits 10] [--max-hogs 4] [--docker] [--repeats 5]

The process sandbox by default (the same zygote as the Docker backend's); ``--docker`` uses the sandbox
image (``SANDBOX_IMAGE``, default judge-sandbox:latest).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import speed  # noqa: E402
from engine.package import load_package  # noqa: E402
from engine.speed import BENCH_DRAWS, REPEATS, build_benchmark, measure_speed, percentile  # noqa: E402
from engine.testset import build_cases  # noqa: E402

TARGET_POINTS = 10
SUBJECT = """
import numpy as np


def layer_norm(x, gamma, beta, eps):
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.var(x, axis=-1, keepdims=True) + eps) * gamma + beta
"""
# The reference, then extra passes over the input that change nothing: slower and slower accepted solutions.
PADDED = """
import numpy as np


def layer_norm(x, gamma, beta, eps):
    for _ in range({passes}):
        x = x + np.exp(-np.abs(x)) * 0.0
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps) * gamma + beta
"""
ROW_LOOP = """
import numpy as np


def layer_norm(x, gamma, beta, eps):
    out = np.empty_like(x)
    flat, rows = x.reshape(-1, x.shape[-1]), out.reshape(-1, x.shape[-1])
    for r in range(flat.shape[0]):
        row = flat[r]
        mean = row.sum() / row.size
        var = ((row - mean) ** 2).sum() / row.size
        rows[r] = (row - mean) / np.sqrt(var + eps) * gamma + beta
    return out
"""
ELEMENT_LOOP = """
import numpy as np


def layer_norm(x, gamma, beta, eps):
    flat = x.reshape(-1, x.shape[-1])
    out = np.empty_like(flat)
    d = flat.shape[1]
    for r in range(flat.shape[0]):
        row = [float(v) for v in flat[r]]
        mean = sum(row) / d
        var = sum((v - mean) ** 2 for v in row) / d
        for c in range(d):
            out[r, c] = (row[c] - mean) / (var + eps) ** 0.5 * gamma[c] + beta[c]
    return out.reshape(x.shape)
"""
HOG = "while True:\n    pass\n"


def quarter_trimmed(pairs: list[tuple[float, float]]) -> float:
    """The alternative figure: the mean log ratio of the middle half of the repeats (a quarter left out at
    each end, not one), computed from the very measurements the judge's figure was."""
    logs = sorted(math.log(max(s, speed.FLOOR_MS) / max(r, speed.FLOOR_MS)) for s, r in pairs)
    cut = len(logs) // 4
    return float(f"{math.exp(statistics.fmean(logs[cut : len(logs) - cut])):.4g}")


class PairsSeen:
    """Keeps the (student, reference) pairs behind each figure ``engine.speed`` makes."""

    def __init__(self) -> None:
        self.last: list[tuple[float, float]] = []
        self._figure = speed.figure

    def __call__(self, pairs):
        self.last = list(pairs)
        return self._figure(pairs)


def population() -> dict[str, str]:
    solutions = {
        f"reference + {n} passes": PADDED.format(passes=n) for n in (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)
    }
    return solutions | {"loop over rows": ROW_LOOP, "loop over elements": ELEMENT_LOOP}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submits", type=int, default=10)
    parser.add_argument("--max-hogs", type=int, default=4, help="busy processes beside the sandbox, at most")
    parser.add_argument("--docker", action="store_true")
    parser.add_argument(
        "--repeats", type=int, default=REPEATS, help="repeats per measurement (the judge's: %(default)s)"
    )
    args = parser.parse_args()
    package = load_package(ROOT / "problems" / "layer_norm")
    if args.docker:
        from sandbox.backends.docker import DockerSandbox

        sandbox = DockerSandbox(image=os.environ.get("SANDBOX_IMAGE", "judge-sandbox:latest"), pool_size=1)
    else:
        from sandbox.backends.process import ProcessSandbox

        sandbox = ProcessSandbox()
    seen = PairsSeen()
    speed.figure = seen  # measure_speed makes its figure through it; the alternative is made beside it
    with sandbox:
        draws = build_benchmark(package, sandbox, list(range(7001, 7001 + BENCH_DRAWS)), build_cases(package, sandbox))
        print(
            f"benchmark: {len(draws)} draws of {draws[0].name.split('~')[0]} (layer_norm); {os.cpu_count()} cores; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        others, others_alt = {}, {}
        for name, code in population().items():
            report = measure_speed(code, package.solution, package.spec(), draws, sandbox, repeats=args.repeats)
            others[name] = report.precise  # what the site compares: the ratio to four figures
            others_alt[name] = quarter_trimmed(seen.last)
            print(f"  population  {name:<24} {report.ratio:>6}x  ({report.precise})")
        ratios, points, points_alt = [], [], []
        for submit in range(args.submits):
            hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(submit % (args.max_hogs + 1))]
            try:
                time.sleep(0.2)
                started = time.monotonic()
                report = measure_speed(SUBJECT, package.solution, package.spec(), draws, sandbox, repeats=args.repeats)
                took = time.monotonic() - started
                load = os.getloadavg()[0]
            finally:
                for hog in hogs:
                    hog.kill()
                    hog.wait()
            ratios.append(report.precise)
            points.append(percentile(report.precise, list(others.values())))
            points_alt.append(percentile(quarter_trimmed(seen.last), list(others_alt.values())))
            print(
                f"  submit {submit + 1:>2}: {len(hogs)} hogs, load {load:4.1f}: {report.ratio:>5}x "
                f"({report.precise:.3f}) (student {report.student_ms:7.2f} ms, "
                f"reference {report.reference_ms:7.2f} ms per call), "
                f"faster than {points[-1]:>3}% (quarter-trimmed: {points_alt[-1]:>3}%)  [{took:.1f} s]"
            )
    spread = max(points) - min(points)
    print(
        f"ratio ({args.repeats} repeats): median {statistics.median(ratios):.3f}x, min {min(ratios):.3f}x, "
        f"max {max(ratios):.3f}x"
    )
    print(
        f"percentile: median {statistics.median(points)}, spread {spread} points "
        f"({'within' if spread <= TARGET_POINTS else 'OUTSIDE'} the {TARGET_POINTS}-point target)"
    )
    print(
        f"the same measurements with a quarter trimmed at each end: spread {max(points_alt) - min(points_alt)} points"
    )


if __name__ == "__main__":
    main()
