"""What publishing a draft changes for students: its files and its tests against the live version.

Read-only: the publish page shows it before staff press Publish (``lifecycle.publish_draft``). The live
version's files are those its test set kept when its gate passed; a version stored before files were kept
has none, and the page says so rather than show every file as new.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field

from engine.arrays import unpack_inputs
from judge.problems.models import Problem, TestSet

MAX_DIFF_LINES = 400  # per file: a regenerated data file should not bury the rest


@dataclass
class FileChange:
    name: str
    kind: str  # added | removed | changed
    diff: list[tuple[str, str]] = field(default_factory=list)  # (css class, line) of a unified diff
    cut: int = 0  # diff lines left out beyond MAX_DIFF_LINES


@dataclass
class TestChange:
    name: str
    kind: str  # added | removed | changed
    how: str = ""  # for a changed test: what differs (its inputs, expected output, visibility)


@dataclass
class Changes:
    live: TestSet | None  # the version students see (or saw, if unpublished); None: never published
    files_known: bool  # the live version's files were kept
    files: list[FileChange]
    tests: list[TestChange]
    tests_before: int
    tests_after: int


def changes_to_publish(problem: Problem, gated: TestSet) -> Changes:
    """``gated`` (the draft's test set, stored by its passing gate run) against the live version."""
    live = problem.current_test_set
    before = live.files if live is not None else {}
    files_known = live is None or bool(before)
    files = file_changes(before, problem.draft_files) if files_known else []
    old, new = _cases(live), _cases(gated)
    return Changes(live, files_known, files, test_changes(old, new), len(old), len(new))


def file_changes(before: dict[str, str], after: dict[str, str]) -> list[FileChange]:
    changes = []
    for name in sorted(set(before) | set(after)):
        if before.get(name) == after.get(name):
            continue
        kind = "added" if name not in before else "removed" if name not in after else "changed"
        lines = list(
            difflib.unified_diff(
                before.get(name, "").splitlines(),
                after.get(name, "").splitlines(),
                f"live/{name}",
                f"draft/{name}",
                lineterm="",
            )
        )
        shown = [(_line_class(line), line) for line in lines[:MAX_DIFF_LINES]]
        changes.append(FileChange(name, kind, shown, max(0, len(lines) - MAX_DIFF_LINES)))
    return changes


def _line_class(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "file"
    return {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "same")


def test_changes(old: dict[str, tuple], new: dict[str, tuple]) -> list[TestChange]:
    changes = [TestChange(name, "added") for name in new if name not in old]
    changes += [TestChange(name, "removed") for name in old if name not in new]
    for name in new.keys() & old.keys():
        (hidden, inputs, expected), (was_hidden, was_inputs, was_expected) = new[name], old[name]
        how = [
            what
            for what, differs in (("inputs", inputs != was_inputs), ("expected output", expected != was_expected))
            if differs
        ]
        if hidden != was_hidden:
            how.append("now hidden" if hidden else "now visible")
        if how:
            changes.append(TestChange(name, "changed", ", ".join(how)))
    order = {"added": 0, "changed": 1, "removed": 2}
    return sorted(changes, key=lambda c: (order[c.kind], c.name))


def _cases(test_set: TestSet | None) -> dict[str, tuple]:
    """The seed's graded tests (not the probe inputs, not the secret draws) by name: (hidden, digests)."""
    if test_set is None:
        return {}
    rows = test_set.cases.filter(variant=0, probe=False).values_list("name", "hidden", "inputs", "expected")
    return {
        name: (hidden, _inputs_digest(bytes(inputs)), _digest(bytes(expected)))
        for name, hidden, inputs, expected in rows
    }


def _inputs_digest(packed: bytes) -> str:
    """Of the inputs themselves: the zip that holds them records when it was written."""
    return _digest(repr(sorted(unpack_inputs(packed).items())).encode())


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
