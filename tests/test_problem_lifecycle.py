"""A problem's lifecycle has one owner: each move is one transaction with its audit row, and dead gate runs end."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from judge.authoring import lifecycle
from judge.authoring.lifecycle import Stage, stage_of
from judge.authoring.models import Action, AuditEntry
from judge.authoring.services import edit_draft, unpublish
from judge.problems.models import GateRun, GateStatus, SyncRun

SLUG = "prepend_class_token"


def actions(slug: str = SLUG) -> list[str]:
    return list(AuditEntry.objects.filter(problem_slug=slug).order_by("pk").values_list("action", flat=True))


def test_a_synced_problem_is_imported_then_published_each_with_its_audit_row(problems):
    assert stage_of(problems[SLUG]) == Stage.PUBLISHED
    assert actions() == [Action.SYNC, Action.PUBLISH]


def test_an_edit_leaves_the_problem_published_with_a_pending_draft(problems, author):
    problem = problems["add_positional_embedding"]  # what it builds on is synced too
    files = dict(problem.draft_files) | {"statement.md": problem.draft_files["statement.md"] + "\nMore.\n"}

    problem = edit_draft(author, problem, files)

    assert stage_of(problem) == Stage.PENDING_DRAFT


def test_unpublishing_hides_the_problem_and_records_who_did_it(problems, author):
    unpublish(author, problems[SLUG])

    problems[SLUG].refresh_from_db()
    assert stage_of(problems[SLUG]) == Stage.UNPUBLISHED
    entry = AuditEntry.objects.filter(problem_slug=SLUG).latest("pk")
    assert (entry.action, entry.user) == (Action.UNPUBLISH, author)


def test_a_gate_run_whose_worker_died_is_failed_by_the_sweep(problems):
    problem = problems[SLUG]
    dead = GateRun.objects.create(problem=problem, package_hash=problem.draft_hash, status=GateStatus.RUNNING)
    fresh = GateRun.objects.create(problem=problem, package_hash=problem.draft_hash, status=GateStatus.RUNNING)
    GateRun.objects.filter(pk=dead.pk).update(created_at=timezone.now() - timedelta(hours=1))

    assert lifecycle.finish_dead_gate_runs() == [dead.pk]

    dead.refresh_from_db()
    fresh.refresh_from_db()
    assert (dead.status, dead.passed) == (GateStatus.DONE, False)
    assert "stopped before it finished" in dead.error
    assert fresh.status == GateStatus.RUNNING


def test_a_running_sync_s_gates_are_not_taken_for_dead_however_long_they_wait(problems):
    """A first start queues every gate at once; on a slow machine the last wait longer than a dead run would."""
    problem = problems[SLUG]
    long_ago = timezone.now() - timedelta(hours=1)
    sync = SyncRun.objects.create(waiting=[SLUG])
    SyncRun.objects.filter(pk=sync.pk).update(started_at=long_ago - timedelta(seconds=5))
    waiting = GateRun.objects.create(problem=problem, package_hash=problem.draft_hash, trigger="sync")
    GateRun.objects.filter(pk=waiting.pk).update(created_at=long_ago)

    assert lifecycle.finish_dead_gate_runs() == []  # the sync beat a moment ago

    SyncRun.objects.filter(pk=sync.pk).update(heartbeat_at=long_ago)  # then it died
    assert lifecycle.finish_dead_gate_runs() == [waiting.pk]
