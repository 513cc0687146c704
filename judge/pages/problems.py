from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from engine.speed import VECTORISED_WITHIN
from judge.courses.release import editorial_hold, marked_held, marks_for
from judge.learning.services import bookmarked_ids
from judge.pages.problem_page import problem_page
from judge.problems.models import Difficulty, Problem
from judge.problems.queries import get_problem_for_user, problems_being_prepared
from judge.problems.tracks import catalogue_tracks
from judge.standings.models import ProblemTotals
from judge.standings.ranking import problem_totals
from judge.submissions import speed
from judge.submissions.composition import chain_to_solve
from judge.submissions.queries import history
from judge.submissions.reviews import not_due_reason

# The "still being prepared" notice asks for its count this often, until it is 0 (``problems_preparing``).
PREPARING_POLL_S = 4
LISTED_EVENT = "judge:problems-listed"  # the problem list reloads itself on it
LIST_FIELDS = ("slug", "title", "summary", "difficulty", "tags", "path_order", "track", "spec")


@dataclass
class ListedProblem:
    """One row of the list, flattened so that rendering 100 rows stays cheap."""

    position: int
    slug: str
    url: str
    title: str
    summary: str
    difficulty: str
    difficulty_label: str
    tags: list[str]
    acceptance: str  # "67%", or "" before any graded submit
    solvers: int
    mark: str  # solved | attempted | ""
    bookmarked: bool = False
    # Locked for this student: every problem still to solve before it opens, in learning-path order (titles).
    chain: list[str] = field(default_factory=list)


@dataclass
class TrackSection:
    """One track of the catalogue on the list: its problems (those the filters keep) and the student's progress."""

    slug: str
    title: str
    summary: str
    rows: list[ListedProblem] = field(default_factory=list)
    solved: int = 0
    total: int = 0

    @property
    def percent(self) -> int:
        return round(100 * self.solved / self.total) if self.total else 0


def listed(
    problem: Problem, position: int, stats: ProblemTotals, mark: str, url_prefix: str, bookmarked: bool = False
) -> ListedProblem:
    rate = stats.acceptance_rate
    return ListedProblem(
        position,
        problem.slug,
        f"{url_prefix}{problem.slug}/",
        problem.title,
        problem.summary,
        problem.difficulty,
        problem.get_difficulty_display(),
        problem.tags,
        "" if rate is None else f"{round(rate * 100)}%",
        stats.solvers,
        mark,
        bookmarked=bookmarked,
    )


OTHER_TRACK = {"slug": "", "title": "More problems", "summary": ""}


def track_sections(problems: list[Problem], rows: list[ListedProblem], solved: set[int]) -> list[TrackSection]:
    """The rows under their tracks, in the catalogue's order (problems of no known track last); a track whose
    problems the filters all hide is left out, but its progress always counts all of its problems."""
    known = catalogue_tracks(settings.PROBLEMS_DIR)
    sections = {t["slug"]: TrackSection(t["slug"], t["title"], t["summary"]) for t in [*known, OTHER_TRACK]}
    track_of = {p.slug: p.track if p.track in sections else "" for p in problems}
    for problem in problems:
        section = sections[track_of[problem.slug]]
        section.total += 1
        section.solved += problem.pk in solved
    for row in rows:
        sections[track_of[row.slug]].rows.append(row)
    return [section for section in sections.values() if section.rows]


def lock(rows: list[ListedProblem], problems: list[Problem], solved: set[int], user) -> None:
    """Mark each row this student cannot Run or Submit yet with the whole chain still to solve."""
    if user.is_staff:
        return
    builds_on_of = {p.slug: list(p.spec.get("builds_on", [])) for p in problems}
    solved_slugs = {p.slug for p in problems if p.pk in solved}
    order = {p.slug: p.path_order for p in problems}
    titles = {p.slug: p.title for p in problems}
    for row in rows:
        if row.mark != "solved" and builds_on_of.get(row.slug):
            row.chain = [titles.get(s, s) for s in chain_to_solve(row.slug, builds_on_of, solved_slugs, order)]


def matches(problem: Problem, query: str, tag: str, difficulty: str) -> bool:
    if tag and tag not in problem.tags:
        return False
    if difficulty and problem.difficulty != difficulty:
        return False
    haystack = " ".join([problem.title, problem.summary, problem.slug, *problem.tags]).lower()
    return all(word in haystack for word in query.lower().split())


def problem_list(request):
    query, tag, difficulty = (request.GET.get(k, "").strip() for k in ("q", "tag", "difficulty"))
    only_bookmarked = request.GET.get("bookmarked") == "1"
    problems = list(Problem.objects.filter(published=True).only(*LIST_FIELDS))  # ordered by the learning path
    stats = problem_totals()  # kept with the verdicts: no aggregate over submissions, no cache
    solved, attempted = marks_for(request.user)
    bookmarks = bookmarked_ids(request.user)
    url_prefix = reverse("problem-detail", args=["slug"]).removesuffix("slug/")
    rows = [
        listed(
            p,
            position,
            stats.get(p.pk) or ProblemTotals(),
            "solved" if p.pk in solved else "attempted" if p.pk in attempted else "",
            url_prefix,
            p.pk in bookmarks,
        )
        for position, p in enumerate(problems, start=1)
        if matches(p, query, tag, difficulty) and (p.pk in bookmarks or not only_bookmarked)
    ]
    lock(rows, problems, solved, request.user)
    return render(
        request,
        "problems/list.html",
        {
            "listed": rows,
            "sections": track_sections(problems, rows, solved),
            "total": len(problems),
            "query": query,
            "tag": tag,
            "difficulty": difficulty,
            "only_bookmarked": only_bookmarked,
            "tags": sorted({t for p in problems for t in p.tags}),
            "difficulties": Difficulty.choices,
            "solved_count": len(solved & {p.pk for p in problems}),
            "preparing": problems_being_prepared(),
            "poll_s": PREPARING_POLL_S,
            "listed_event": LISTED_EVENT,
        },
    )


def problems_preparing(request):
    """The notice's count, which the list's notice polls: when it went down (``?shown=`` is what the page
    says), the list reloads its rows; at 0 the notice goes and, answered 286, htmx stops polling."""
    shown = request.GET.get("shown", "")
    preparing = problems_being_prepared()
    response = render(request, "problems/_preparing.html", {"preparing": preparing, "poll_s": PREPARING_POLL_S})
    if not shown.isdigit() or preparing < int(shown):
        response["HX-Trigger"] = LISTED_EVENT
    if not preparing:
        response.status_code = 286
    return response


def problem_detail(request, slug: str):
    return problem_page(request, get_problem_for_user(request.user, slug))


def problem_speed(request, slug: str):
    """The speed ranking: each student's fastest accepted Submit, by CPU time against the reference's."""
    problem = get_problem_for_user(request.user, slug)
    rows = speed.ranking(problem, request.user)
    if editorial_hold(request.user, problem.pk):  # their own row would say their Submit was accepted
        rows = [row for row in rows if not row.mine]
    return render(request, "problems/speed.html", {"problem": problem, "rows": rows, "within": VECTORISED_WITHIN})


@login_required
def problem_review(request, slug: str):
    """The spaced review's re-solve: the problem page from a blank editor, its Submit counted for the review."""
    problem = get_problem_for_user(request.user, slug)
    refused = not_due_reason(request.user, problem, timezone.now())
    return problem_page(request, problem, review=not refused, review_refused=refused)


@login_required
def problem_history(request, slug: str):
    """The Submissions tab, refreshed each time it is opened."""
    problem = get_problem_for_user(request.user, slug)
    return render(
        request, "problems/_history.html", {"submissions": marked_held(request.user, history(request.user, problem))}
    )
