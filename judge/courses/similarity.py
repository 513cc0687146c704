"""Similarity between students' final submissions to one assignment problem, for the instructor only.

On a short NumPy answer nearly every line is one that independent students write alike (``x - x.max(axis=-1,
keepdims=True)``), so a share of common code says nothing: two different correct solutions shared 98% of their
fingerprints. What points at copying is sharing what is *unusual*. So:

- Each statement of a program (a logical line, comments and docstrings left out) is read as Python tokens with
  the names the student chose replaced by one placeholder (attributes, keyword names, the modules and builtins
  everyone uses are kept): renaming variables or reordering statements changes nothing.
- A statement of the starter code or of the reference solution, or written by at least half the class, is
  common: it never counts. The rest are weighted by their length in tokens and by how few others wrote them
  (a statement three students share weighs half as much as one only two share). "Others" include the authors of
  up to ``OTHERS`` accepted solutions from outside the class (``accepted_elsewhere``): a line many independent
  people write weighs little even when only two students of this class wrote it.
- A pair's score is the weight of the unusual statements the two share over the unusual weight of the smaller
  of the two. The shared statements are what the page marks.
- A program with fewer than ``TOO_SHORT_TOKENS`` tokens of unusual statements cannot be told from an independent
  one: it is left out of the pairs, and when that is most of the class the page says the problem is too short to
  judge.

Code is only read as text here: it is tokenised, never run. A student's final submission is their last Submit
inside their own window, or their last Submit at all when none was inside it.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import itertools
import keyword
import tokenize
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from statistics import median

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from engine.verdicts import Verdict
from judge.courses.grades import course_submits, students_of, windows_of
from judge.courses.models import Assignment
from judge.submissions.models import Kind, Submission

SHOWN_PAIRS = 20
TOO_SHORT_TOKENS = 25  # tokens of unusual statements: less than a few lines of one's own
OTHERS = 200  # correct programs from outside the class, read to know which lines independent people write
COMMON_SHARE = 0.5  # a statement written by at least this share of the class (and by 3 or more) is common
PLACEHOLDER = "_"
KEPT_NAMES = frozenset(dir(builtins)) | {"np", "numpy", "math", "self", "cls"}
SKIPPED = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
    tokenize.ENCODING,
}


@dataclass(frozen=True)
class Statement:
    key: str  # a hash of the statement's normalised tokens
    tokens: int
    lines: tuple[int, int]  # first and last line, 1-based


@dataclass
class Program:
    statements: list[Statement]
    unusual: dict[str, float] = field(default_factory=dict)  # key -> weight

    @property
    def weight(self) -> float:
        return sum(self.unusual.values())


@dataclass
class Pair:
    first: str
    second: str
    similarity: float  # the shared unusual weight over the smaller program's unusual weight
    first_html: SafeString
    second_html: SafeString
    shared_lines: int  # statements shared, each counted once


@dataclass
class Report:
    pairs: list[Pair]
    too_short: bool  # most of the class wrote too little beyond the common lines to be judged
    median_tokens: int  # of unusual statements, per student
    left_out: list[str]  # students with too little of their own to compare


def statements(code: str) -> list[Statement]:
    """The program's statements, normalised; [] for code that does not tokenise (it is still a submission)."""
    found: list[Statement] = []
    words: list[str] = []
    first = 0
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return []
    depth = 0  # inside brackets: a name before "=" is a keyword argument's
    for index, token in enumerate(tokens):
        if token.type == tokenize.NEWLINE and words:
            if not (len(words) == 1 and words[0] == "STR"):  # a docstring alone is not a statement
                digest = hashlib.blake2b(" ".join(words).encode(), digest_size=8).hexdigest()
                found.append(Statement(digest, len(words), (first, token.start[0])))
            words = []
        if token.type in SKIPPED:
            continue
        if not words:
            first = token.start[0]
        depth += (token.string in "([{") - (token.string in ")]}") if token.type == tokenize.OP else 0
        words.append(normalised(token, tokens[index - 1] if index else None, tokens[index + 1 : index + 2], depth))
    return found


def normalised(
    token: tokenize.TokenInfo, before: tokenize.TokenInfo | None, after: list[tokenize.TokenInfo], depth: int
) -> str:
    if token.type == tokenize.STRING:
        if token.string.lstrip("rbuRBU").startswith(('"""', "'''")):
            return "STR"
        try:
            return repr(ast.literal_eval(token.string))  # 'a' and "a" alike
        except (ValueError, SyntaxError):
            return token.string  # an f-string
    if token.type != tokenize.NAME or keyword.iskeyword(token.string) or token.string in KEPT_NAMES:
        return token.string
    if before is not None and before.string == ".":
        return token.string  # an attribute or a method: the API the student called
    if depth and after and after[0].string == "=":
        return token.string  # a keyword argument's name (or a parameter's default: harmless either way)
    return PLACEHOLDER


def keys(code: str) -> set[str]:
    return {s.key for s in statements(code)}


def weigh(codes: dict[str, str], common_code: list[str], others: list[str]) -> dict[str, Program]:
    """Each student's program with the weight of each of its unusual statements. ``others`` are correct programs
    by people outside the class: they are never paired, but what they wrote counts as written (by one more)."""
    programs = {name: Program(statements(code)) for name, code in codes.items()}
    common = set().union(*(keys(code) for code in common_code)) if common_code else set()
    written_by = Counter(key for p in programs.values() for key in {s.key for s in p.statements})
    written_by.update(key for code in others for key in keys(code))
    crowd = max(3, COMMON_SHARE * (len(programs) + len(others)))
    for program in programs.values():
        for s in program.statements:
            if s.key not in common and written_by[s.key] < crowd:
                program.unusual[s.key] = s.tokens / max(written_by[s.key] - 1, 1)
    return programs


def compare(
    codes: dict[str, str], common_code: list[str], others: list[str] | None = None, limit: int = SHOWN_PAIRS
) -> Report:
    """The ``limit`` pairs that share the most of what is unusual, highest first."""
    programs = weigh(codes, common_code, others or [])
    own = {name: sum(s.tokens for s in p.statements if s.key in p.unusual) for name, p in programs.items()}
    judged = sorted(name for name in programs if own[name] >= TOO_SHORT_TOKENS)
    by_key: dict[str, list[str]] = {}
    for name in judged:
        for key in programs[name].unusual:
            by_key.setdefault(key, []).append(name)
    shared: dict[tuple[str, str], float] = defaultdict(float)
    for key, names in by_key.items():
        for a, b in itertools.combinations(names, 2):  # sorted: a < b
            shared[(a, b)] += programs[a].unusual[key]
    scored = sorted(
        ((weight / min(programs[a].weight, programs[b].weight), a, b) for (a, b), weight in shared.items()),
        key=lambda row: (-row[0], row[1], row[2]),
    )
    pairs = []
    for score, a, b in scored[:limit]:
        common = programs[a].unusual.keys() & programs[b].unusual.keys()
        pairs.append(
            Pair(
                a,
                b,
                min(score, 1.0),
                marked(codes[a], programs[a], common),
                marked(codes[b], programs[b], common),
                len(common),
            )
        )
    middle = int(median(own.values())) if own else 0
    return Report(pairs, bool(own) and middle < TOO_SHORT_TOKENS, middle, sorted(set(programs) - set(judged)))


def marked(code: str, program: Program, shared: set[str]) -> SafeString:
    """The code, HTML-escaped, with the lines of the shared unusual statements in <mark>."""
    lines = code.rstrip("\n").split("\n")  # as the tokenizer numbers them (splitlines also breaks at \f, \r and U+2028)
    hit = {n for s in program.statements if s.key in shared for n in range(s.lines[0], s.lines[1] + 1)}
    shown = [
        f'<mark class="match">{escape(line)}</mark>' if n in hit else str(escape(line))
        for n, line in enumerate(lines, 1)
    ]
    return mark_safe("\n".join(shown))  # noqa: S308 (every line went through escape(); only our <mark> tags are raw)


def final_codes(assignment: Assignment, problem) -> dict[str, str]:
    students = students_of(assignment.course)
    windows = windows_of(assignment, students)
    names = {s.user_id: s.username for s in students}
    rows = (
        course_submits(assignment.course, [problem.pk])
        .order_by("-created_at", "-pk")
        .values_list("user_id", "created_at", "code")
    )
    inside: dict[int, str] = {}
    last: dict[int, str] = {}
    for user_id, at, code in rows.iterator():
        window = windows.get(user_id)
        if user_id not in names or window is None:
            continue
        last.setdefault(user_id, code)
        if window.contains(at):
            inside.setdefault(user_id, code)
    return {names[u]: inside.get(u, code) for u, code in last.items()}


def accepted_elsewhere(assignment: Assignment, problem, most: int = OTHERS) -> list[str]:
    """The latest accepted Submit of up to ``most`` people outside the course's students (the most recent first):
    what correct solutions of this problem look like when nobody in the class wrote them."""
    inside = course_submits(assignment.course, [problem.pk]).values("user_id")
    rows = (
        Submission.objects.filter(problem=problem, kind=Kind.SUBMIT, verdict=Verdict.ACCEPTED)
        .exclude(user_id__in=inside)
        .order_by("-created_at")
        .values_list("user_id", "code")[: most * 5]
    )
    latest: dict[int, str] = {}
    for user_id, code in rows:
        latest.setdefault(user_id, code)
    return list(latest.values())[:most]


def similar_pairs(
    codes: dict[str, str], starter: str, reference: str = "", others: list[str] | None = None, limit: int = SHOWN_PAIRS
) -> Report:
    """``compare`` with what every student was given (the starter) and what a correct answer looks like (the
    reference solution) as common code, and correct programs from outside the class (``others``) as the measure of
    what independent people write."""
    return compare(codes, [code for code in (starter, reference) if code.strip()], others, limit)
