"""A student's Submits as a git history: one folder per problem with ``statement.md`` and ``solution.py`` (the
code of their accepted Submit), a commit per Submit in the order they were made, its verdict in the message.

Two selections: ``all`` (every Submit: the code of one that was not accepted goes in ``attempt.py`` beside the
solution, so each is in the history and the tree keeps the same few files) and ``accepted`` (the last accepted
Submit of each problem).
The zip is made as it is sent (``judge.lib.gitzip``): submissions are read a batch at a time and each
commit's bytes go out before the next batch is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from engine.verdicts import Verdict
from judge.lib.gitzip import GitZip, Person
from judge.submissions.models import Kind, Status, Submission

SELECTIONS = {"all": "every Submit, with its verdict", "accepted": "the last accepted Submit of each problem"}
BATCH = 100
README = """# My work on NumPy Transformer Judge

One folder per problem: `statement.md` (the statement when this was exported), `solution.py` (the code of your
accepted Submit) and, in an export of every Submit, `attempt.py` (the code of a Submit that was not accepted:
the last one is here, every one is in the history).  Each Submit is one commit, made when you submitted it; its
message gives the verdict.

    git log --stat                       # what you submitted, when, and what the judge said
    git log -p -- SLUG/attempt.py        # every attempt that was not accepted, in turn
"""


@dataclass(frozen=True)
class Export:
    filename: str
    chunks: Iterator[bytes]


def export_work(user, selection: str = "all", now: datetime | None = None) -> Export:
    now = now or timezone.now()
    folder = f"npjudge-{user.username}"
    return Export(f"{folder}-{now:%Y%m%d}.zip", _chunks(user, selection, folder, now))


def chosen_ids(user, selection: str) -> list[int]:
    """The Submits to export, oldest first (ids only: a student's whole history is a few thousand numbers)."""
    rows = list(
        Submission.objects.filter(user=user, kind=Kind.SUBMIT, status=Status.DONE)
        .order_by("created_at", "pk")
        .values_list("pk", "problem_id", "verdict")
    )
    if selection != "accepted":
        return [pk for pk, _, _ in rows]
    last = {problem_id: pk for pk, problem_id, verdict in rows if verdict == Verdict.ACCEPTED}
    wanted = set(last.values())
    return [pk for pk, _, _ in rows if pk in wanted]


def _chunks(user, selection: str, folder: str, now: datetime) -> Iterator[bytes]:
    repo = GitZip(folder, now)
    author = Person(user.username, user.email or "")
    repo.put("README.md", README.encode())
    # Each file of the last commit: its content (the few statements), or the Submit whose code it holds.
    files: dict[str, bytes | int] = {"README.md": README.encode()}
    ids = chosen_ids(user, selection)
    for start in range(0, len(ids), BATCH):
        batch = (
            Submission.objects.filter(pk__in=ids[start : start + BATCH])
            .select_related("problem")
            .only(
                "pk",
                "code",
                "verdict",
                "created_at",
                "speed",
                "problem__slug",
                "problem__title",
                "problem__statement_md",
            )
            .order_by("created_at", "pk")
        )
        for submission in batch:
            problem = submission.problem
            statement = f"{problem.slug}/statement.md"
            if statement not in files:
                text = problem.statement_md.encode()
                repo.put(statement, text)
                files[statement] = text
            path = solution_path(submission)
            repo.put(path, submission.code.encode("utf-8", "surrogateescape"))
            files[path] = submission.pk
            repo.commit(author, submission.created_at, message(submission))
            yield repo.drain()
    yield repo.finish(_worktree(files))


def solution_path(submission: Submission) -> str:
    slug = submission.problem.slug
    if submission.verdict == Verdict.ACCEPTED:
        return f"{slug}/solution.py"
    return f"{slug}/attempt.py"


def message(submission: Submission) -> str:
    label = submission.get_verdict_display() or "no verdict"
    speed = (submission.speed or {}).get("ratio")
    figure = f", speed {speed}x the reference's CPU time" if speed is not None else ""
    return (
        f"{submission.problem.title}: {label} (#{submission.pk})\n\n"
        f"Submit #{submission.pk} of {submission.problem.slug}, {submission.created_at:%Y-%m-%d %H:%M:%S %Z}: "
        f"{label}{figure}.\n"
    )


def _worktree(files: dict[str, bytes | int]) -> Iterator[tuple[str, bytes]]:
    """The last commit's files with their contents; the code is read again, a batch at a time."""
    codes: dict[int, str] = {}
    for path, content in files.items():
        if isinstance(content, bytes):
            yield path, content
        else:
            codes[content] = path
    ids = sorted(codes)
    for start in range(0, len(ids), BATCH):
        for pk, code in Submission.objects.filter(pk__in=ids[start : start + BATCH]).values_list("pk", "code"):
            yield codes[pk], code.encode("utf-8", "surrogateescape")
