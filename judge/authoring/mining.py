"""Misconception mining: failing submissions grouped by how they failed, for authors to name.

A student counts once per problem, with their latest graded wrong Submit (even if they solved it
later: the mistake they made is what the cluster is about).  Submissions are grouped by the
signatures of the hidden tests they failed (``engine/signatures.py``), and those killed for time
by that, whichever test ran out; those a named misconception already explains are left out, and
clusters are ranked by how many students they hold.  A cluster that only ran out of time cannot be
named: a test that timed out returned nothing to compare a student's result with.

Coverage, per problem, counts the same set the clusters are made of (each student's latest graded wrong
Submit): the share whose results name a misconception, so "nothing left unexplained" under it means 100%.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from engine.signatures import TIME_LIMIT, cluster_id, explained, group
from engine.verdicts import TestStatus, Verdict
from judge.authoring.models import PromotedCluster
from judge.problems.models import Problem
from judge.submissions.models import Kind, Status, Submission

# A wrong output on some test; a compile error (nothing ran) or the judge's own failure is not one.
WRONG_VERDICTS = (
    Verdict.WRONG_ANSWER,
    Verdict.RUNTIME_ERROR,
    Verdict.TIME_LIMIT_EXCEEDED,
    Verdict.MEMORY_LIMIT_EXCEEDED,
    Verdict.OUTPUT_LIMIT_EXCEEDED,
)
SHOWN_CLUSTERS = 20
MORE_SAMPLES = 2


def graded_wrong_submits(problem: Problem):
    return Submission.objects.filter(problem=problem, kind=Kind.SUBMIT, status=Status.DONE, verdict__in=WRONG_VERDICTS)


@dataclass
class Cluster:
    id: str
    key: tuple[tuple[str, str], ...]
    submissions: list[Submission]  # one per student, their latest graded wrong Submit
    promoted: PromotedCluster | None = None

    @property
    def students(self) -> int:
        return len(self.submissions)

    @property
    def tests(self) -> list[str]:
        """The hidden tests its submissions failed (beside running out of time)."""
        return [name for name, _ in self.key if name != TIME_LIMIT]

    @property
    def killed_for_time(self) -> bool:
        return any(name == TIME_LIMIT for name, _ in self.key)

    @property
    def nameable(self) -> bool:
        """Whether a misconception can be made of it: a test that timed out has no result to recognise."""
        return bool(self.tests)

    @property
    def timed_out_on(self) -> list[tuple[str, int]]:
        """The tests its submissions ran out of time on, with how many ran out on each, most first."""
        counts: dict[str, int] = {}
        for submission in self.submissions:
            for test in submission.results or []:
                if isinstance(test, dict) and test.get("status") == TestStatus.TIME_LIMIT_EXCEEDED:
                    counts[test.get("name", "")] = counts.get(test.get("name", ""), 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    @property
    def statuses(self) -> list[str]:
        return sorted({signature.split(":", 1)[0] for _, signature in self.key})

    @property
    def fails_with(self) -> str:
        """What the gate will see first: the status of the first hidden test the sample fails, in run order."""
        failing = (t for t in self.sample.results if isinstance(t, dict) and t.get("hidden") and t.get("signature"))
        return next(failing, {}).get("status", "") or self.key[0][1].split(":", 1)[0]

    @property
    def sample(self) -> Submission:
        return min(self.submissions, key=lambda s: (len(s.code), s.pk))

    @property
    def sample_code(self) -> str:
        return anonymised(self.sample.code, self.sample.user)

    @property
    def other_samples(self) -> list[str]:
        """Up to ``MORE_SAMPLES`` more of its codes, anonymised and each different from the sample: one student's
        way of writing a mistake can hide what the cluster has in common."""
        seen, others = {self.sample_code}, list[str]()
        for submission in sorted(self.submissions, key=lambda s: (len(s.code), s.pk)):
            code = anonymised(submission.code, submission.user)
            if code not in seen and len(others) < MORE_SAMPLES:
                seen.add(code)
                others.append(code)
        return others


def latest_wrong_submits(problem: Problem) -> list[Submission]:
    latest: dict[int, Submission] = {}
    rows = graded_wrong_submits(problem).select_related("user").order_by("-created_at", "-pk")
    for submission in rows.iterator():
        latest.setdefault(submission.user_id, submission)
    return list(latest.values())


def mine_clusters(problem: Problem, limit: int = SHOWN_CLUSTERS) -> list[Cluster]:
    """The largest clusters that no named misconception explains."""
    grouped = group([(s, s.results) for s in latest_wrong_submits(problem)])
    promoted = {p.cluster: p for p in PromotedCluster.objects.filter(problem=problem)}
    clusters = []
    for key, submissions in list(grouped.items())[:limit]:
        ident = cluster_id(key)
        clusters.append(Cluster(ident, key, submissions, promoted.get(ident)))
    return clusters


def find_cluster(problem: Problem, ident: str) -> Cluster | None:
    return next((c for c in mine_clusters(problem, limit=10_000) if c.id == ident), None)


@dataclass
class Coverage:
    wrong: int = 0
    explained: int = 0
    names: dict[str, int] = field(default_factory=dict)  # misconception -> submissions it explains

    @property
    def share(self) -> float | None:
        return self.explained / self.wrong if self.wrong else None


def coverage_of(problem: Problem) -> Coverage:
    coverage = Coverage()
    for submission in latest_wrong_submits(problem):
        results = submission.results
        coverage.wrong += 1
        if explained(results or []):
            coverage.explained += 1
            for name in {t["misconception"].get("name", "") for t in results if t.get("misconception")}:
                coverage.names[name] = coverage.names.get(name, 0) + 1
    return coverage


# --------------------------------------------------------------------------
# Anonymised code: no comments, no docstrings, no name of the student
# --------------------------------------------------------------------------


def anonymised(code: str, user=None) -> str:
    """``code`` without comments and docstrings (where a student may sign their work), and without the
    student's user name, first or last name, should it appear elsewhere."""
    text = _without_comments(code)
    for word in _names_of(user):
        text = re.sub(re.escape(word), "student", text, flags=re.IGNORECASE)
    return text


def _names_of(user) -> list[str]:
    if user is None:
        return []
    words = [
        user.get_username(),
        getattr(user, "first_name", ""),
        getattr(user, "last_name", ""),
        (getattr(user, "email", "") or "").split("@")[0],
    ]
    return sorted({w for w in words if len(w) >= 3}, key=len, reverse=True)


def _without_comments(code: str) -> str:
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type != tokenize.NL]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return "# (the code could not be read to remove its comments)\n"
    drop: set[int] = set()  # lines (0-based) of docstrings: string statements on their own
    cuts: dict[int, int] = {}  # line -> column where its comment starts
    starts = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    significant = [t for t in tokens if t.type != tokenize.COMMENT]
    padded: list[tokenize.TokenInfo | None] = [None, *significant, None]
    for before, token, after in zip(padded, significant, padded[2:]):
        if (
            token.type == tokenize.STRING
            and (before is None or before.type in starts)
            and (after is None or after.type in (tokenize.NEWLINE, tokenize.ENDMARKER))
        ):
            drop.update(range(token.start[0] - 1, token.end[0]))
    for token in tokens:
        if token.type == tokenize.COMMENT:
            cuts[token.start[0] - 1] = token.start[1]
    kept = []
    for row, whole in enumerate(code.splitlines()):
        if row in drop:
            continue
        line = whole[: cuts[row]].rstrip() if row in cuts else whole
        if row in cuts and not line:
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n") + "\n"
