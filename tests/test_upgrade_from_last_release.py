"""A site at the last release, with a term's data in it, upgraded to this code (issue 44 §3).

An empty database is migrated to the latest recorded release's schema (``judge/lib/releases.py``: the migrations
at that release, not a git tag, which a fresh clone may lack), filled through the models as they were then (the
migration state's historical models, not today's classes), and migrated to HEAD. Today's code must then read it:
the gradebook with its extension, the leaderboard, a student's submission page, the LMS link; and write beside it
(points by hand, a table the release did not have).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.hashers import make_password
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from judge.courses import desk
from judge.courses.export import gradebook_csv
from judge.courses.grades import gradebook
from judge.courses.models import AdjustmentKind, Assignment, Course
from judge.lib.releases import latest_release
from judge.lti.models import LtiLink
from judge.standings.ranking import leaderboard
from tests.databases import connected_to, fresh_database

DUE = datetime(2026, 3, 2, 17, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
PASSWORD = "correct horse battery"


def fill_at_release(apps) -> dict[str, int]:
    """A course's week through the release's own models: users, two problems with test sets, submissions with
    verdicts, the standings they made, an assignment with a late rule, an extension, and an LMS link."""
    model = apps.get_model
    users = {
        name: model("auth", "User").objects.create(
            username=name, email=f"{name}@example.org", password=make_password(PASSWORD)
        )
        for name in ("iris", "ada", "grace")
    }
    problems = []
    for order, slug in enumerate(("first_step", "second_step"), start=1):
        problem = model("problems", "Problem").objects.create(
            slug=slug,
            title=slug.replace("_", " ").capitalize(),
            difficulty="easy",
            statement_md="-",
            starter_code="",
            solution_code="",
            package_hash="-",
            path_order=order,
            published=True,
        )
        test_set = model("problems", "TestSet").objects.create(problem=problem, version="v1")
        problem.current_test_set = test_set
        problem.save()
        problems.append(problem)

    Submission = model("submissions", "Submission")

    def submitted(user, problem, verdict: str, at: datetime):
        row = Submission.objects.create(
            user=users[user],
            problem=problem,
            test_set=problem.current_test_set,
            kind="submit",
            code="import numpy as np\n",
            status="done",
            verdict=verdict,
            finished_at=at + 5 * timedelta(seconds=1),
        )
        Submission.objects.filter(pk=row.pk).update(created_at=at)
        return row

    first, second = problems
    accepted = submitted("ada", first, "accepted", DUE - 3 * HOUR)
    submitted("ada", second, "accepted", DUE - 2 * HOUR)
    submitted("grace", first, "accepted", DUE + HOUR)  # late, but within her extension
    submitted("grace", second, "wrong_answer", DUE + 2 * HOUR)

    State, Totals, Level = (model("leaderboard", name) for name in ("UserProblemState", "UserTotals", "SolvedLevel"))
    for user, problem, accepted_count, at in (
        ("ada", first, 1, DUE - 3 * HOUR),
        ("ada", second, 1, DUE - 2 * HOUR),
        ("grace", first, 1, DUE + HOUR),
        ("grace", second, 0, None),
    ):
        State.objects.create(
            user=users[user],
            problem=problem,
            attempts=1,
            accepted=accepted_count,
            first_accepted_at=at,
            best_verdict="accepted" if at else "wrong_answer",
        )
    Totals.objects.create(user=users["ada"], solved=2, reached_at=DUE - 2 * HOUR)
    Totals.objects.create(user=users["grace"], solved=1, reached_at=DUE + HOUR)
    Level.objects.create(solved=2, users=1)
    Level.objects.create(solved=1, users=1)

    course = model("courses", "Course").objects.create(
        title="Transformers in NumPy", term="Spring 2026", join_code="RELEASE1", created_by=users["iris"]
    )
    Membership = model("courses", "Membership")
    Membership.objects.create(course=course, user=users["iris"], role="instructor")
    for name in ("ada", "grace"):
        Membership.objects.create(course=course, user=users[name], role="student")
    assignment = model("courses", "Assignment").objects.create(
        course=course,
        title="Week 1",
        opens_at=DUE - 168 * HOUR,
        due_at=DUE,
        closes_at=DUE + 48 * HOUR,
        late_rule="multiplier",
        late_multiplier=0.5,
        weight=1.0,
    )
    for position, problem in enumerate(problems):
        model("courses", "AssignmentProblem").objects.create(assignment=assignment, problem=problem, position=position)
    model("courses", "Override").objects.create(
        assignment=assignment,
        user=users["grace"],
        due_at=DUE + 24 * HOUR,
        reason="a medical certificate",
        created_by=users["iris"],
    )

    platform = model("lti", "Platform").objects.create(
        name="Canvas",
        issuer="https://canvas.example.edu",
        client_id="10000000000001",
        deployment_ids=["1:abc"],
        key_set_url="https://canvas.example.edu/jwks",
        auth_login_url="https://canvas.example.edu/auth",
        auth_token_url="https://canvas.example.edu/token",
    )
    context = model("lti", "LtiContext").objects.create(
        platform=platform, deployment_id="1:abc", context_id="course-42", course=course
    )
    model("lti", "LtiLink").objects.create(
        context=context,
        resource_link_id="link-week-1",
        assignment=assignment,
        lineitem_url="https://canvas.example.edu/line_items/7",
    )
    return {"course": course.pk, "assignment": assignment.pk, "accepted": accepted.pk, "ada": users["ada"].pk}


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # the applied migrations read afresh


def week_one_csv(course_pk: int) -> list[list[str]]:
    out = io.StringIO()
    gradebook_csv(gradebook(Course.objects.get(pk=course_pk)), out)
    return list(csv.reader(io.StringIO(out.getvalue())))


EXPECTED_CSV = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 1", "Email", "Final Score"],
    ["ada", "", "", "ada", "", "2", "ada@example.org", "100.00"],
    ["grace", "", "", "grace", "", "1", "grace@example.org", "50.00"],  # on time within her extension
]


def test_a_site_at_the_last_release_upgrades_to_this_code_and_reads_its_data(transactional_db, client):
    release = latest_release()
    targets = sorted(release.migrations.items())
    with fresh_database("upgrade") as name, connected_to(name):
        executor = migrate(targets)
        assert executor.loader.applied_migrations.keys() >= set(targets)
        assert ("courses", "0002_adjustments") not in executor.loader.applied_migrations  # really the old schema
        ids = fill_at_release(executor.loader.project_state(targets).apps)

        executor = migrate(executor.loader.graph.leaf_nodes())
        assert not executor.migration_plan(executor.loader.graph.leaf_nodes())

        course = Course.objects.get(pk=ids["course"])
        assert week_one_csv(course.pk) == EXPECTED_CSV
        assert [(s.rank, s.username, s.solved) for s in leaderboard()] == [(1, "ada", 2), (2, "grace", 1)]
        assert LtiLink.objects.get().assignment_id == ids["assignment"]

        client.login(username="ada", password=PASSWORD)  # the release's password hash still signs her in
        page = client.get(f"/submissions/{ids['accepted']}/")
        assert page.status_code == 200 and "Accepted" in page.content.decode()

        # A table the release did not have, written by today's code beside the release's rows.
        assignment = Assignment.objects.get(pk=ids["assignment"])
        ada = course.memberships.get(user_id=ids["ada"]).user
        desk.adjust_points(
            assignment,
            course.memberships.get(role="instructor").user,
            ada,
            assignment.items.first().problem,
            AdjustmentKind.DELTA,
            -0.5,
            "late slides",
        )
        assert gradebook(course).assignments[0].total(ids["ada"]) == 1.5


def test_a_backup_taken_at_the_last_release_is_restored_with_migrate_into_this_codes_schema(transactional_db, tmp_path):
    release = latest_release()
    targets = sorted(release.migrations.items())
    backup = tmp_path / "release.backup"
    with fresh_database("at_release") as name, connected_to(name):
        executor = migrate(targets)
        ids = fill_at_release(executor.loader.project_state(targets).apps)
        call_command("backup", str(backup))
    with fresh_database("restored") as name, connected_to(name):
        with pytest.raises(CommandError, match=rf"holds the schema of release {release.version} .* Add --migrate"):
            call_command("restore", str(backup))
        assert connection.introspection.table_names() == []
        call_command("restore", str(backup), "--migrate")
        executor = MigrationExecutor(connection)
        assert not executor.migration_plan(executor.loader.graph.leaf_nodes())
        assert week_one_csv(ids["course"]) == EXPECTED_CSV
