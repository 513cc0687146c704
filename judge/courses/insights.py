"""What a class gets wrong on each assignment problem: the authoring mining (``judge.authoring.mining``) read over
this course's students only. Per problem: the named misconceptions and the probes (properties) that fired, with how
many students each, and the largest clusters no misconception explains. Each student counts once per problem, with
their latest graded wrong Submit, as in the mining."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.signatures import cluster_id, group
from judge.authoring.mining import WRONG_VERDICTS
from judge.courses.grades import course_submits
from judge.courses.models import Assignment
from judge.submissions.models import Status

CLUSTERS_SHOWN = 5


@dataclass
class ProblemInsight:
    slug: str
    title: str
    students_wrong: int = 0
    misconceptions: list[tuple[str, int]] = field(default_factory=list)
    properties: list[tuple[str, int]] = field(default_factory=list)
    clusters: list[tuple[str, list[str], int]] = field(default_factory=list)  # id, failing tests, students


def insights(assignment: Assignment) -> list[ProblemInsight]:
    items = list(assignment.items.select_related("problem"))
    found = []
    for item in items:
        latest: dict[int, tuple[list[Any], list[Any]]] = {}
        rows = (
            course_submits(assignment.course, [item.problem_id])
            .filter(status=Status.DONE, verdict__in=WRONG_VERDICTS)
            .order_by("-created_at", "-pk")
            .values_list("user_id", "results", "properties")
        )
        for user_id, results, properties in rows.iterator():
            latest.setdefault(user_id, (results or [], properties or []))
        found.append(summarise(item.problem, list(latest.values())))
    return found


def summarise(problem, latest: list[tuple[list, list]]) -> ProblemInsight:
    names: Counter[str] = Counter()
    properties: Counter[str] = Counter()
    for results, fired in latest:
        # A passed test carries an empty misconception: only a named one is a mistake the class makes.
        named = {
            t["misconception"].get("name")
            for t in results
            if isinstance(t, dict) and isinstance(t.get("misconception"), dict)
        }
        names.update(str(name) for name in named if name)
        properties.update({str(p["name"]) for p in fired if isinstance(p, dict) and p.get("name")})
    grouped = group([(index, results) for index, (results, _) in enumerate(latest)])
    clusters = [
        (cluster_id(key), [name for name, _ in key], len(members))
        for key, members in list(grouped.items())[:CLUSTERS_SHOWN]
    ]
    return ProblemInsight(
        problem.slug, problem.title, len(latest), names.most_common(), properties.most_common(), clusters
    )
