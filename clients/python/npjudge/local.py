"""``npjudge test``: your file on the visible examples, on your machine, checked by the judge's own engine.

The checks, their order and their messages are the engine's (``engine.grading.grade`` with
``engine.checks``), imported, not copied: the same dtype, shape and value messages the site shows for a
visible test. The code runs in the engine's process sandbox, as the site's embedded default does. So the
judge's ``engine`` and ``sandbox`` packages must be importable: install the judge itself beside npjudge
(``pip install . ./clients/python`` in a checkout; docs/students/cli.md)."""

from __future__ import annotations

import json
from pathlib import Path


class EngineMissing(RuntimeError):
    pass


def load_engine():
    try:
        from engine.grading import grade
        from engine.spec import Case, ProblemSpec
        from engine.verdicts import CHECK_LABELS, CHECKS, TestStatus, Verdict
        from sandbox.backends.process import ProcessSandbox
    except ImportError as error:
        raise EngineMissing(
            f"npjudge test needs the judge's engine ({error.name} is not importable): in a checkout of the "
            "judge, run `pip install . ./clients/python`"
        ) from None
    return grade, Case, ProblemSpec, CHECK_LABELS, CHECKS, TestStatus, Verdict, ProcessSandbox


def visible_cases(folder: Path, problem: dict, Case) -> list:
    """The pulled examples as the engine's cases: arrays as their .npy bytes, scalars as plain values."""
    cases = []
    for example in problem["examples"]:
        here = folder / "examples" / example["name"]
        inputs = {
            value["name"]: (here / f"{value['name']}.npy").read_bytes() if value["kind"] == "array" else value["value"]
            for value in example["inputs"]
        }
        cases.append(Case(example["name"], False, inputs, (here / "expected.npy").read_bytes()))
    return cases


def test_locally(folder: Path, code: str) -> dict:
    """The report in the API's shape, so the terminal and the notebook show it as they show the site's."""
    grade, Case, ProblemSpec, CHECK_LABELS, CHECKS, TestStatus, Verdict, ProcessSandbox = load_engine()
    problem = json.loads((folder / "problem.json").read_text())
    spec = ProblemSpec.from_dict(problem["grading_spec"])
    sandbox = ProcessSandbox()
    try:
        report = grade(code, spec, visible_cases(folder, problem, Case), sandbox, solved=solved_modules(folder))
    finally:
        sandbox.close()
    tests = [
        {
            "name": t.name,
            "hidden": False,
            "status": t.status,
            "status_label": _label(TestStatus, t.status),
            "message": t.message,
            "checks": {CHECK_LABELS[c]: t.checks.get(c, "skipped") for c in CHECKS},
            "traceback": t.traceback,
            "stdout": t.stdout,
            "time_ms": t.time_ms,
        }
        for t in report.tests
    ]
    return {
        "id": None,
        "problem": problem["slug"],
        "kind": "local",
        "status": "done",
        "final": True,
        "verdict": report.verdict,
        "verdict_label": _label(Verdict, report.verdict),
        "accepted": report.verdict == Verdict.ACCEPTED,
        "message": report.message,
        "tests": tests,
        "misconceptions": [],
        "properties": report.properties,
        "url": "",
    }


def solved_modules(folder: Path) -> dict[str, str]:
    """For a problem that builds on others: ``solved/<slug>.py`` beside it is what ``from solved import`` gives."""
    return {path.stem: path.read_text() for path in sorted((folder / "solved").glob("*.py"))}


def _label(enum, value: str) -> str:
    try:
        return enum(value).label
    except ValueError:
        return value
