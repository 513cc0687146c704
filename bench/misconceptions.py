"""Misconception coverage of a synthetic class, per problem: how many wrong submissions a named misconception explains.

For every packaged problem: its gate runs (which records what each known-wrong solution does), then a
synthetic class is graded exactly as the site grades it (``engine.grading.grade``, in a real sandbox):

* two students per known-wrong solution of the package: its file as written, and the same code with a
  comment and blank lines added (the same mistake typed by someone else);
* two students per generic mistake, derived from the reference by changing what it returns, each written
  two ways that give the same output: cast to float32 (``astype(np.float32)`` / ``np.float32(y)``),
  the last two axes swapped (``swapaxes`` / ``moveaxis``), scaled by two (``2 * y`` / ``y + y``) and
  rounded to three decimals (``np.round`` / ``np.around``).

Printed per problem: wrong submissions, how many a named misconception explains (the coverage figure),
how many clusters mining finds among the rest, and how many students the largest holds.  With
``--promote`` the largest cluster's sample is added to the package as a known-wrong solution, the gate runs
again and the class is graded again: the coverage after one naming.

    .venv/bin/python bench/misconceptions.py [--backend process|docker] [--only slug ...] [--promote]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "judge.settings")

import django  # noqa: E402

django.setup()

from curriculum import catalogue  # noqa: E402  (bench/curriculum.py)

from engine.gate import run_gate  # noqa: E402
from engine.grading import grade  # noqa: E402
from engine.package import Package, WrongSpec  # noqa: E402
from engine.signatures import explained, group  # noqa: E402
from engine.verdicts import Verdict  # noqa: E402
from judge.lib.sandbox_backend import open_sandbox  # noqa: E402

WRONG_VERDICTS = {
    Verdict.WRONG_ANSWER,
    Verdict.RUNTIME_ERROR,
    Verdict.TIME_LIMIT_EXCEEDED,
    Verdict.MEMORY_LIMIT_EXCEEDED,
    Verdict.OUTPUT_LIMIT_EXCEEDED,
}
# name -> two ways of writing the same change to the reference's result ``y`` (an ndarray)
GENERIC = {
    "float32": ("y.astype(np.float32)", "np.float32(y)"),
    "last axes swapped": (
        "np.swapaxes(y, -1, -2) if y.ndim >= 2 else y[::-1]",
        "np.moveaxis(y, -1, -2) if y.ndim >= 2 else np.flip(y)",
    ),
    "scaled by two": ("2 * y", "y + y"),
    "rounded": ("np.round(y, 3)", "np.around(y, decimals=3)"),
}
WRAPPER = """

import numpy as np
_reference_{function} = {function}


def {function}(*args, **kwargs):
    y = np.asarray(_reference_{function}(*args, **kwargs))
    return {expression}
"""


def classroom(package: Package) -> list[tuple[str, str]]:
    """(student label, code) of the synthetic class."""
    students = []
    for wrong in package.wrong:
        students.append((wrong.file, wrong.code))
        students.append((wrong.file + " (retyped)", "# my attempt\n\n" + wrong.code.replace("\n\n\n", "\n\n\n\n")))
    for name, ways in GENERIC.items():
        for index, expression in enumerate(ways):
            code = package.solution + WRAPPER.format(function=package.problem.function, expression=expression)
            students.append((f"{name} #{index + 1}", code))
    return students


def grade_class(package: Package, cases, sandbox, solved) -> list[tuple[str, str, list[dict]]]:
    spec = package.spec()
    graded = []
    for label, code in classroom(package):
        report = grade(code, spec, cases, sandbox, solved=solved)
        graded.append((label, code, report.as_dict()["tests"] if report.verdict in WRONG_VERDICTS else None))
    return graded


def figures(graded) -> tuple[int, int, dict]:
    wrong = [(label, results) for label, _, results in graded if results is not None]
    return len(wrong), sum(explained(results) for _, results in wrong), group(wrong)


def promoted(package: Package, graded, clusters: dict) -> Package:
    key, labels = next(iter(clusters.items()))
    code = next(code for label, code, _ in graded if label == labels[0])
    fails_with = key[0][1].split(":", 1)[0]
    wrong = WrongSpec(
        file="wrong/mined.py",
        code=code,
        fails_with=fails_with,
        name=f"Mined: {labels[0]}",
        explanation="named from the largest cluster",
        see="",
    )
    return dataclasses.replace(package, wrong=[*package.wrong, wrong], content_hash=package.content_hash + "+mined")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("process", "docker"), default="process")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--promote", action="store_true", help="name the largest cluster and measure again")
    options = parser.parse_args()
    packages, order = catalogue(options.only)
    references = {slug: package.solution for slug, package in packages.items()}
    header = (
        f"| {'problem':<32} | named | class | wrong | explained | coverage | clusters left | largest |"
        + (" after naming it |" if options.promote else "")
        + " s |"
    )
    print(header)
    print("|" + "|".join("---" for _ in header.split("|")[1:-1]) + "|")
    totals = [0, 0, 0, 0]
    started_all = time.perf_counter()
    with open_sandbox(options.backend) as sandbox:
        for slug in order:
            started = time.perf_counter()
            package = packages[slug]
            solved = {name: references[name] for name in package.problem.builds_on}
            outcome = run_gate(package, sandbox, solved=solved)
            if not outcome.passed:
                print(f"| {slug:<32} | gate failed: {outcome.first_failure().key} |", flush=True)
                continue
            graded = grade_class(package, outcome.cases, sandbox, solved)
            wrong, named, clusters = figures(graded)
            totals[0], totals[1] = totals[0] + wrong, totals[1] + named
            largest = len(next(iter(clusters.values()))) if clusters else 0
            row = (
                f"| {slug:<32} | {len(package.wrong)} | {len(graded)} | {wrong} | {named} | "
                f"{named / wrong:.0%} | {len(clusters)} | {largest} |"
            )
            if options.promote and clusters:
                again = promoted(package, graded, clusters)
                second = run_gate(again, sandbox, solved=solved)
                if second.passed:
                    wrong_after, named_after, _ = figures(grade_class(package, second.cases, sandbox, solved))
                    totals[2], totals[3] = totals[2] + wrong_after, totals[3] + named_after
                    row += f" {named_after / wrong_after:.0%} |"
                else:
                    row += f" gate refused it: {second.first_failure().detail.splitlines()[-1][:60]} |"
            elif options.promote:
                row += " - |"
            print(row + f" {time.perf_counter() - started:.1f} |", flush=True)
    share = f"{totals[1] / totals[0]:.0%}" if totals[0] else "-"
    print(
        f"{len(order)} problems, {totals[0]} wrong submissions, {totals[1]} explained ({share}) "
        f"in {time.perf_counter() - started_all:.0f} s"
    )


if __name__ == "__main__":
    main()
