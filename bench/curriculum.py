"""The catalogue at a glance: every packaged problem through its publish gate, in learning-path order.

Prints, per problem: its track, graded tests (visible), probe inputs, tests also checked against a
finite difference, named misconceptions, probes, and the gate's wall time and result.

    .venv/bin/python bench/curriculum.py [--backend process|docker] [--only slug ...] [--track slug]

``--track llm-and-serving`` prints one track's table (its slug in problems/tracks.toml).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

import django  # noqa: E402

django.setup()

from engine.gate import run_gate  # noqa: E402
from engine.package import discover, load_package, load_tracks  # noqa: E402
from judge.authoring.sync import learning_path  # noqa: E402
from judge.lib.sandbox_backend import open_sandbox  # noqa: E402


def catalogue(only: list[str], track: str = "") -> tuple[dict, list[str]]:
    """The packages of problems/ by slug, and their slugs in learning-path order (only ``only``, and only the
    track ``track``, if given)."""
    packages = {p.slug: p for p in (load_package(path) for path in discover(ROOT / "problems"))}
    entries = load_tracks(ROOT / "problems")
    tracks = [entry["slug"] for entry in entries]
    if track and track not in tracks:
        raise SystemExit(f"no track {track!r} in problems/tracks.toml; the tracks are {', '.join(tracks)}")
    listed = [slug for entry in entries for slug in entry["problems"]]
    order = [
        slug
        for slug in learning_path(list(packages.values()), set(), tracks, listed)
        if (not only or slug in only) and (not track or packages[slug].track == track)
    ]
    return packages, order


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("process", "docker"), default="process")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--track", default="", help="only this track's problems (a slug of problems/tracks.toml)")
    options = parser.parse_args()
    packages, order = catalogue(options.only, options.track)
    references = {slug: package.solution for slug, package in packages.items()}
    header = f"| {'problem':<32} | track | tests (visible) | probe inputs | fd-checked | misconceptions | probes | gate s | gate |"
    print(header)
    print("|" + "|".join("---" for _ in header.split("|")[1:-1]) + "|")
    with open_sandbox(options.backend) as sandbox:
        for slug in order:
            package = packages[slug]
            solved = {name: references[name] for name in package.problem.builds_on}
            started = time.perf_counter()
            outcome = run_gate(package, sandbox, solved=solved)
            seconds = time.perf_counter() - started
            graded = [c for c in outcome.cases if not c.probe]
            visible = sum(not c.hidden for c in graded)
            result = "passed" if outcome.passed else f"FAILED: {outcome.first_failure().key}"
            print(
                f"| {slug:<32} | {package.track or '-'} | {len(graded)} ({visible}) | "
                f"{sum(c.probe for c in outcome.cases)} | {sum(c.fd_expected is not None for c in graded)} | "
                f"{len(package.wrong)} | {len(package.problem.probes)} | {seconds:.1f} | {result} |",
                flush=True,
            )
    print(f"{len(order)} problems")


if __name__ == "__main__":
    main()
