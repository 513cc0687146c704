"""A verdict in a terminal: the per-test table with the site's check chips, then the named mistakes.

Colours only when writing to a terminal (and ``NO_COLOR`` is unset); plain text when piped."""

from __future__ import annotations

import os
import sys
import textwrap
from typing import TextIO

MARKS = {"passed": "✓", "failed": "✗", "skipped": "–"}
COLOURS = {"green": "32", "red": "31", "yellow": "33", "dim": "2", "bold": "1"}


class Painter:
    def __init__(self, stream: TextIO) -> None:
        self.on = stream.isatty() and not os.environ.get("NO_COLOR")

    def __call__(self, text: str, colour: str) -> str:
        return f"\033[{COLOURS[colour]}m{text}\033[0m" if self.on else text


def verdict_text(submission: dict, paint: Painter) -> str:
    label = submission.get("verdict_label") or submission.get("status", "")
    if submission.get("held"):  # the course releases grades later: no verdict to mark right or wrong
        return paint(f"• {label}", "yellow")
    colour = "green" if submission.get("accepted") else "red"
    return paint(f"{'✓' if submission.get('accepted') else '✗'} {label}", colour)


def render(submission: dict, stream: TextIO = sys.stdout) -> None:
    paint = Painter(stream)
    tests = submission.get("tests", [])
    head = f"#{submission['id']} " if submission.get("id") else ""
    kind: dict[str | None, str] = {
        "run": "Run (visible examples, not counted)",
        "submit": "Submit",
        "review": "Review (counts for the review only)",
        "local": "Local test",
    }
    took = f", graded in {submission['graded_in']}" if submission.get("graded_in") else ""
    print(
        f"{head}{submission.get('problem', '')}  {kind.get(submission.get('kind'), submission.get('kind', ''))}  "
        f"{verdict_text(submission, paint)}  ({len(tests)} test{'s' * (len(tests) != 1)}{took})",
        file=stream,
    )
    if submission.get("held"):
        print(textwrap.indent(textwrap.fill(submission["held"], 96), "  "), file=stream)
    if submission.get("message"):
        print(textwrap.indent(submission["message"], "  "), file=stream)
    if tests:
        width = max(len(_name(t)) for t in tests) + 2
        checks = list(tests[0].get("checks", {}))
        print(paint(f"  {'test'.ljust(width)}{'status'.ljust(22)}{' '.join(checks)}", "dim"), file=stream)
        for test in tests:
            status_colour = "green" if test["status"] == "passed" else "red"
            chips = " ".join(_chip(test["checks"].get(c, "skipped"), c, paint) for c in checks)
            print(
                f"  {_name(test).ljust(width)}{paint(test['status_label'].ljust(22), status_colour)}{chips}",
                file=stream,
            )
            if test.get("message") and test["status"] != "passed":
                print(paint(textwrap.indent(textwrap.fill(test["message"], 96), "      "), "dim"), file=stream)
            for frame in test.get("traceback") or []:
                print(
                    f"      line {frame.get('line')}, in {frame.get('function')}: {frame.get('text', '')}", file=stream
                )
    for found in submission.get("misconceptions", []):
        print(paint(f"\nLooks like a known mistake: {found['name']}", "yellow"), file=stream)
        print(textwrap.indent(textwrap.fill(found.get("explanation", ""), 96), "  "), file=stream)
        if found.get("url"):
            print(f"  Read: {found['url']}", file=stream)
    for broken in submission.get("properties", []):
        print(paint(f"\nA property your code breaks: {broken['name']}", "yellow"), file=stream)
        print(textwrap.indent(textwrap.fill(broken.get("message", ""), 96), "  "), file=stream)
    speed = speed_text(submission)
    if speed:
        print(f"\n{speed}", file=stream)
    if submission.get("url"):
        print(paint(f"\n{submission['url']}", "dim"), file=stream)


def speed_text(submission: dict) -> str:
    """An accepted Submit's speed, as the site's page says it; the figure comes a little after the verdict."""
    speed = submission.get("speed")
    if speed:
        vectorised = " (vectorised)" if speed.get("vectorised") else ""
        if speed.get("percentile") is None:
            rank = "the first measured solution of this problem"
        else:
            rank = f"faster than {speed['percentile']}% of the other students' accepted solutions"
        return f"Speed: {speed['ratio']}x the reference's CPU time{vectorised}; {rank}"
    if submission.get("accepted") and submission.get("kind") == "submit":
        return f"Speed: being measured; `npjudge status {submission.get('id')}` shows it in a little while"
    return ""


def _name(test: dict) -> str:
    return test["name"] + (" (hidden)" if test.get("hidden") else "")


def _chip(state: str, label: str, paint: Painter) -> str:
    text = MARKS.get(state, "?").ljust(len(label))
    return paint(text, {"passed": "green", "failed": "red"}.get(state, "dim"))


class Progress:
    """The live status line: rewritten in place in a terminal, one line per change when piped."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream, self.tty, self.last = stream, stream.isatty(), None

    def __call__(self, event: dict) -> None:
        status = event.get("status", "")
        where = f", position {event['queue_position']} in the queue" if event.get("queue_position") else ""
        text = {"queued": f"queued{where}", "running": "running the tests…"}.get(status, status)
        if text == self.last:
            return
        self.last = text
        if self.tty:
            self.stream.write(f"\r\033[K⏳ {text}")
        else:
            self.stream.write(f"{text}\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and self.last is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()
