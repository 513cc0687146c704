"""Per problem: how many graded wrong Submits a named misconception explains, and the largest unexplained cluster."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from judge.authoring.mining import coverage_of, mine_clusters
from judge.problems.models import Problem


class Command(BaseCommand):
    help = "Print the share of graded wrong submissions that a named misconception explains, per problem."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slugs", nargs="*", help="only these problems")

    def handle(self, *args, slugs: list[str], **options) -> None:
        problems = Problem.objects.order_by("path_order", "slug")
        if slugs:
            problems = problems.filter(slug__in=slugs)
        self.stdout.write(f"| {'problem':<32} | wrong | explained | coverage | unexplained clusters | largest |")
        self.stdout.write("|---|---|---|---|---|---|")
        total_wrong = total_explained = 0
        for problem in problems:
            coverage, clusters = coverage_of(problem), mine_clusters(problem, limit=10_000)
            total_wrong, total_explained = total_wrong + coverage.wrong, total_explained + coverage.explained
            share = f"{coverage.share:.0%}" if coverage.share is not None else "-"
            largest = f"{clusters[0].students} students" if clusters else "-"
            self.stdout.write(
                f"| {problem.slug:<32} | {coverage.wrong} | {coverage.explained} | {share} | "
                f"{len(clusters)} | {largest} |"
            )
        if total_wrong:
            self.stdout.write(
                f"all problems: {total_explained} of {total_wrong} explained ({total_explained / total_wrong:.0%})"
            )
