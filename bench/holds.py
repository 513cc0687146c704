"""What a grade hold costs the standings pages at scale, before and after it was kept from them, side by side.

Reads a database that ``bench/scale.py --keep`` filled (100k students), adds a course whose N students are held
(an assignment released by hand, not yet released, holding the problems they solved most), and times the pages,
alternating in one run between: the hold rules off (the pages as before holds were kept from them), the rules on
with the assignment releasing at once (no one held: the usual case), and the rules on with the N students held.

    .venv/bin/python bench/scale.py --database-url postgres://postgres@127.0.0.1:5432/judge_scale --keep
    .venv/bin/python bench/holds.py --database-url postgres://postgres@127.0.0.1:5432/judge_scale

The course is deleted at the end.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import DEFAULT_URL, setup_django  # noqa: E402  (after the path is set)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--held", type=int, default=1000, help="students in the held course")
    parser.add_argument("--runs", type=int, default=15, help="requests per page and mode")
    return parser.parse_args()


def held_course(students: int):
    """A course of ``students`` ranked students (spread over the board), with an unreleased assignment holding
    the five problems solved most."""
    from django.contrib.auth import get_user_model

    from judge.courses.models import Assignment, AssignmentProblem, Course, Membership, Release, Role
    from judge.standings.models import ProblemTotals, UserTotals

    ranked = list(UserTotals.objects.order_by("-solved", "reached_at", "user_id").values_list("user_id", flat=True))
    chosen = ranked[:: max(1, len(ranked) // students)][:students]
    course = Course.objects.create(title="Held course", term="bench")
    Membership.objects.bulk_create([Membership(course=course, user_id=u, role=Role.STUDENT) for u in chosen])
    assignment = Assignment.objects.create(course=course, title="Held week", release=Release.MANUAL)
    problems = ProblemTotals.objects.order_by("-solvers").values_list("problem_id", flat=True)[:5]
    AssignmentProblem.objects.bulk_create([AssignmentProblem(assignment=assignment, problem_id=p) for p in problems])
    return course, assignment, get_user_model().objects.get(pk=chosen[len(chosen) // 2])


def main() -> None:
    args = parse_args()
    setup_django(args.database_url)
    from django.test import Client

    from judge.courses.models import Release
    from judge.standings.ranking import board
    from judge.submissions import withheld

    course, assignment, student = held_course(args.held)
    rules = (list(withheld._rules), list(withheld._board_rules))

    def mode(name: str) -> None:
        withheld._rules[:], withheld._board_rules[:] = ([], []) if name == "before" else rules
        assignment.release = Release.MANUAL if name == "held" else Release.AT_ONCE
        assignment.save(update_fields=["release"])

    try:
        deep = max(1, board().total // 50 // 2)
        anonymous, signed_in = Client(), Client()
        signed_in.force_login(student)
        pages = [
            ("leaderboard, first page", anonymous, "/leaderboard/"),
            ("leaderboard, a deep page (the middle)", anonymous, f"/leaderboard/?page={deep}"),
            ("leaderboard, this week", anonymous, "/leaderboard/?window=week"),
            ("leaderboard, signed in (a held student)", signed_in, "/leaderboard/?page=me"),
            ("problem list, signed in", signed_in, "/"),
            ("first solvers", anonymous, "/leaderboard/problems/"),
            ("profile of a held student", anonymous, f"/accounts/users/{student.username}/"),
        ]
        modes = ("before", "no one held", "held")
        timings: dict[tuple[str, str], list[float]] = {(m, label): [] for m in modes for label, _, _ in pages}
        for run in range(args.runs + 2):  # the first two warm up
            for name in modes:
                mode(name)
                for label, client, url in pages:
                    started = time.perf_counter()
                    assert client.get(url).status_code == 200, url
                    if run >= 2:
                        timings[(name, label)].append((time.perf_counter() - started) * 1000)
        mode("held")
        moved = len(board().moved)
        print(f"medians in ms over {args.runs} runs each, alternating; {args.held} students held ({moved} moved):")
        print("| page | before | no one held | ratio | held | ratio |")
        print("| --- | --- | --- | --- | --- | --- |")
        for label, _, _ in pages:
            before, none, held = (statistics.median(timings[(m, label)]) for m in modes)
            print(f"| {label} | {before:.1f} | {none:.1f} | {none / before:.2f} | {held:.1f} | {held / before:.2f} |")
    finally:
        withheld._rules[:], withheld._board_rules[:] = rules
        course.delete()


if __name__ == "__main__":
    main()
