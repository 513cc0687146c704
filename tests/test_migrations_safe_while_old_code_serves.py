"""Migrations run while the previous release still serves: none may lock a big table for long or break old code.

During an upgrade the ``migrate`` one-off runs while web and workers of the previous release keep serving, and
they keep serving until their containers are replaced (docs/operators/upgrades.md#zero-downtime-rules). On the
tables that grow with every student and every Submit, an operation is refused here when it would:

- break the old code: a column it still reads removed or renamed, a NOT NULL column it does not write added without
  a database default (its INSERTs fail: Django's ``default`` is applied once and dropped), a table renamed or
  dropped, a constraint it relies on dropped;
- hold a long lock: a column's type or nullability changed (a rewrite or a full scan under ACCESS EXCLUSIVE), an
  index or a unique or check constraint built inside the migration's lock (PostgreSQL: ``AddIndexConcurrently`` in
  a non-atomic migration instead);
- do what no one can read from its operations (``RunSQL``, ``RunPython``) without a written review below.

Migrations that ran before release 1.0.0 are allowed by name, each with why: they are history, already applied
on every site, and cannot be changed. The list must match exactly what the check finds among them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

from judge.lib.releases import RELEASES

# app label, model name -> why it is big
BIG_TABLES = {
    ("submissions", "submission"): "every Run and Submit, with its test results (results, properties)",
    ("problems", "testcase"): "every test of every test set version, with its arrays",
    ("problems", "knownwrongoutcome"): "what every known-wrong solution returned on every test",
    ("leaderboard", "userproblemstate"): "the standings: one row per student and problem tried",
    ("leaderboard", "usertotals"): "the standings: one row per ranked student",
    ("leaderboard", "periodtotals"): "the standings: one row per student, week and month",
    ("lti", "scorepost"): "one row per student and LMS line item, rewritten with each changed credit",
    ("courses", "feedback"): "comments on submissions",
}

# Operations whose effect cannot be read from their class: each one after release 1.0.0 is reviewed here.
REVIEWED: dict[tuple[str, str], str] = {}

FIRST_RELEASE = RELEASES[0]

# Migrations before release 1.0.0 that this check refuses, and why they are allowed.
BEFORE_FIRST_RELEASE = {
    (
        "problems",
        "0003_problem_spec_track_probe_cases",
    ): "moved columns into the spec JSON with RunPython when the catalogue had no students; history",
    ("problems", "0005_testcase_variant"): "added the variant column to test cases before the first release; history",
    (
        "problems",
        "0006_gated_versions",
    ): "kept each live package's files with RunPython, a few rows per problem; history",
    (
        "problems",
        "0008_arrays_compressed_with_lz4",
    ): "SET COMPRESSION changes only what new values use: a catalogue lock, no rewrite; history",
    ("submissions", "0002_submission_properties"): "added the properties column before the first release; history",
    ("submissions", "0003_submission_custom_inputs"): "added custom-input columns before the first release; history",
    (
        "submissions",
        "0004_submission_client_key",
    ): "added the click key's unique constraint before the first release; history",
    ("submissions", "0005_submission_draw"): "added the secret draw before the first release; history",
    ("submissions", "0006_submission_client_address"): "added the client address before the first release; history",
    ("submissions", "0007_submission_calendar"): "built the calendar index inside the migration; history",
    (
        "submissions",
        "0010_once_per_click_per_problem",
    ): "rebuilt the click key's unique constraint per problem (ran on every site on 2026-12-07); history",
    (
        "leaderboard",
        "0002_standings_from_existing_submissions",
    ): "built the standings from the submissions once, when the standings tables appeared; history",
    (
        "leaderboard",
        "0003_apply_verdict_function",
    ): "installed the judge_apply_verdict function (CREATE OR REPLACE: no table lock); history",
    ("leaderboard", "0004_username_search_index"): "built the trigram index on auth_user; history",
}


@dataclass(frozen=True)
class Finding:
    migration: tuple[str, str]
    operation: str
    why: str

    def __str__(self) -> str:
        return f"{self.migration[0]}.{self.migration[1]}: {self.operation}: {self.why}"


def big(app: str, model: str) -> bool:
    return (app, model.lower()) in BIG_TABLES


def db_type(state: ProjectState, app: str, model: str, name: str, connection) -> tuple:
    field = state.apps.get_model(app, model)._meta.get_field(name)
    return field.db_parameters(connection)["type"], field.null, field.db_index, field.unique


def findings_of(migration, state: ProjectState, connection) -> list[Finding]:
    """What is wrong with each operation of ``migration``, applied in order to ``state`` (changed in place)."""
    found = []
    key = (migration.app_label, migration.name)
    created = set()  # tables this migration makes: empty, and no old code reads them
    for operation in migration.operations:
        if isinstance(operation, migrations.CreateModel):
            created.add(operation.name.lower())
        model = (getattr(operation, "model_name", None) or getattr(operation, "name", "")).lower()
        why = "" if model in created else judged(operation, migration.app_label, state, connection)
        if why and not (key in REVIEWED and isinstance(operation, migrations.RunSQL | migrations.RunPython)):
            found.append(Finding(key, operation.describe(), why))
        operation.state_forwards(migration.app_label, state)
    return found


def judged(operation, app: str, state: ProjectState, connection) -> str:
    if isinstance(operation, migrations.RunSQL | migrations.RunPython):
        return "its effect cannot be read from the operation: review it and list it in REVIEWED with why"
    model = getattr(operation, "model_name", None) or getattr(operation, "name", "")
    if isinstance(operation, migrations.CreateModel) or not big(app, model):
        return ""
    if isinstance(operation, AddIndexConcurrently | RemoveIndexConcurrently):
        return ""
    if isinstance(operation, migrations.AddField):
        field = operation.field
        if field.null or field.many_to_many or field.db_default is not models.NOT_PROVIDED:
            return (
                ""
                if not (field.unique or field.db_index) or field.many_to_many
                else "builds an index inside the migration's lock (add the index with AddIndexConcurrently)"
            )
        return (
            "adds a NOT NULL column without a database default: the old code's INSERTs fail (null=True or db_default)"
        )
    if isinstance(operation, migrations.RemoveField | migrations.RenameField):
        return "the old code still reads this column (stop reading it in one release, remove it in the next)"
    if isinstance(operation, migrations.AlterField):
        before = db_type(state, app, model, operation.name, connection)
        after_state = state.clone()
        operation.state_forwards(app, after_state)
        after = db_type(after_state, app, model, operation.name, connection)
        if before == after:
            return ""
        return f"changes the column in the database ({before} -> {after}): a rewrite or scan under an exclusive lock"
    if isinstance(operation, migrations.AddIndex):
        return "builds an index inside the migration's lock (AddIndexConcurrently, in a migration with atomic = False)"
    if isinstance(operation, migrations.RemoveIndex):
        return "drops an index inside the migration's lock (RemoveIndexConcurrently, atomic = False)"
    if isinstance(operation, migrations.AddConstraint | migrations.RemoveConstraint):
        return (
            "builds or drops a constraint under an exclusive lock, and the old code may rely on it (a unique "
            "index made concurrently first, then the constraint using it)"
        )
    if isinstance(operation, migrations.AlterUniqueTogether | migrations.AlterIndexTogether):
        return "builds or drops an index under an exclusive lock"
    if isinstance(operation, migrations.DeleteModel | migrations.RenameModel | migrations.AlterModelTable):
        return "the old code still reads this table"
    return ""


@pytest.fixture(scope="module")
def loader() -> MigrationLoader:
    return MigrationLoader(None, ignore_no_migrations=True)


def ours(loader: MigrationLoader) -> list[tuple[str, str]]:
    plan = []
    for leaf in sorted(loader.graph.leaf_nodes()):
        plan += [key for key in loader.graph.forwards_plan(leaf) if key not in plan]
    return [key for key in plan if loader.disk_migrations[key].__module__.startswith("judge.")]


def released(loader: MigrationLoader) -> set[tuple[str, str]]:
    keys: set[tuple[str, str]] = set()
    for app, name in FIRST_RELEASE.migrations.items():
        keys.update(loader.graph.forwards_plan((app, name)))
    return keys


def all_findings(loader: MigrationLoader) -> list[Finding]:
    from django.db import connection

    found = []
    for key in ours(loader):
        state = loader.project_state(key, at_end=False)
        found += findings_of(loader.disk_migrations[key], state, connection)
    return found


@pytest.fixture(scope="module")
def findings(loader) -> list[Finding]:
    """Every migration's findings, read once (column types are asked of the backend, not the database)."""
    return all_findings(loader)


def test_no_migration_after_the_first_release_locks_a_big_table_or_breaks_the_old_code(loader, findings):
    before = released(loader)
    found = [finding for finding in findings if finding.migration not in before]
    assert not found, "\n".join(map(str, found))


def test_the_allow_list_is_exactly_the_historical_migrations_the_check_refuses(loader, findings):
    before = released(loader)
    refused = {finding.migration for finding in findings if finding.migration in before}
    assert refused == set(BEFORE_FIRST_RELEASE), (
        f"refused but not allowed: {sorted(refused - set(BEFORE_FIRST_RELEASE))}; "
        f"allowed but not refused (remove them): {sorted(set(BEFORE_FIRST_RELEASE) - refused)}"
    )


def test_every_reviewed_migration_exists(loader):
    assert set(REVIEWED) <= set(loader.disk_migrations)


def verdicts_on(loader: MigrationLoader, *operations, atomic: bool = True) -> list[str]:
    """The check's findings on a made-up migration of the submissions app after HEAD."""
    from django.db import connection

    migration = type("Migration", (migrations.Migration,), {"operations": list(operations), "atomic": atomic})(
        "9999_made_up", "submissions"
    )
    state = loader.project_state(tuple(loader.graph.leaf_nodes()), at_end=True)
    return [finding.why for finding in findings_of(migration, state, connection)]


@pytest.mark.parametrize(
    ("operation", "refused_because"),
    [
        (
            migrations.AddField("submission", "grader", models.CharField(max_length=20, default="a")),
            "adds a NOT NULL column without a database default",
        ),
        (migrations.RemoveField("submission", "custom_error"), "the old code still reads this column"),
        (migrations.RenameField("submission", "message", "note"), "the old code still reads this column"),
        (
            migrations.AlterField("submission", "kind", models.CharField(max_length=40, default="submit")),
            "changes the column in the database",
        ),
        (migrations.AlterField("submission", "grading_ms", models.FloatField()), "changes the column in the database"),
        (
            migrations.AddIndex("submission", models.Index(fields=["verdict"], name="by_verdict")),
            "builds an index inside the migration's lock",
        ),
        (
            migrations.AddConstraint(
                "submission", models.CheckConstraint(condition=models.Q(attempts__lte=9), name="few_attempts")
            ),
            "builds or drops a constraint",
        ),
        (migrations.DeleteModel("submission"), "the old code still reads this table"),
        (migrations.RunSQL("UPDATE submissions_submission SET verdict = ''"), "cannot be read from the operation"),
    ],
)
def test_the_check_refuses_what_would_lock_or_break(loader, operation, refused_because):
    findings = verdicts_on(loader, operation)
    assert len(findings) == 1 and refused_because in findings[0], findings


@pytest.mark.parametrize(
    "operation",
    [
        migrations.AddField("submission", "grader", models.CharField(max_length=20, null=True)),
        migrations.AddField("submission", "tries", models.IntegerField(default=0, db_default=0)),
        migrations.AlterField(
            "submission",
            "kind",
            models.CharField(
                max_length=10, default="submit", help_text="x", choices=[("submit", "Submit"), ("run", "Run")]
            ),
        ),
        AddIndexConcurrently("submission", models.Index(fields=["verdict"], name="by_verdict")),
        migrations.CreateModel(
            "Appeal",
            [
                ("id", models.BigAutoField(primary_key=True)),
                ("submission", models.ForeignKey("submissions.submission", models.CASCADE)),
            ],
        ),
        migrations.AddIndex("workerheartbeat", models.Index(fields=["host"], name="by_host")),  # a small table
    ],
)
def test_the_check_lets_through_what_old_code_and_a_busy_table_survive(loader, operation):
    assert verdicts_on(loader, operation, atomic=False) == []
