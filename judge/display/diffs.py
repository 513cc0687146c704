"""The change between two submissions' code, as the diff pages draw it: (css class, line) pairs."""

from __future__ import annotations

import difflib

from judge.submissions.models import Submission


def code_diff(older: Submission, newer: Submission) -> list[tuple[str, str]]:
    lines = difflib.unified_diff(
        older.code.splitlines(), newer.code.splitlines(), f"#{older.pk}", f"#{newer.pk}", lineterm="", n=3
    )
    return [(_line_class(line), line) for line in lines]


def _line_class(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "file"
    return {"+": "added", "-": "removed", "@": "hunk"}.get(line[:1], "same")
