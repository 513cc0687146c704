"""``manage.py gradebook COURSE``: the gradebook CSV the course's page exports, on stdout, for scripts."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from judge.courses.export import gradebook_csv
from judge.courses.grades import gradebook
from judge.courses.models import Course


class Command(BaseCommand):
    help = "Print a course's gradebook as CSV (Canvas's import columns)."

    def add_arguments(self, parser):
        parser.add_argument("course", help="the course's number (as in /courses/<number>/) or its join code")
        parser.add_argument("--per-problem", action="store_true", help="one column per assignment problem too")

    def handle(self, course: str, per_problem: bool, **options):
        found = Course.objects.filter(pk=int(course)).first() if course.isdigit() else None
        found = found or Course.objects.filter(join_code=course.upper()).first()
        if found is None:
            raise CommandError(f"No course is numbered or has the join code {course!r}.")
        gradebook_csv(gradebook(found), self.stdout, per_problem)
