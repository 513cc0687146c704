"""A problem's lifecycle, and the one place that moves it.

    draft --gate passes--> published --edit--> published with a pending draft --gate passes--> published
    published --unpublish--> unpublished --gate passes--> published

``Problem.published`` and the live fields change only here, each transition in one transaction with its
audit row: ``publish`` (a gate run that passed, from the workbench, ``validate_problem`` or a sync import),
``unpublish``, and ``record_import`` (a package from problems/ stored as the draft). Saving a draft
(``judge.problems.drafts.store_package_draft``) never touches what students see, except for a problem that
was never published, whose record is the draft.

A gate run is a state machine too (queued -> running -> done), claimed with a compare-and-set by
``judge.authoring.gate_runs``; ``finish_dead_gate_runs`` fails the ones whose worker died, from the sweep.
"""

from __future__ import annotations

from datetime import timedelta
from enum import StrEnum

from django.db import transaction
from django.utils import timezone

from engine.gate import GateOutcome
from engine.package import Package
from judge.authoring.models import Action, AuditEntry
from judge.leaderboard.services import refresh_problem_standings
from judge.problems.drafts import record_fields
from judge.problems.models import STALLED_AFTER_S, GateRun, GateStatus, Problem, TestSet, WrongSolution


class Stage(StrEnum):
    DRAFT = "draft"  # never published: students do not see it
    PUBLISHED = "published"
    PENDING_DRAFT = "published with a pending draft"  # students see the last version that passed the gate
    UNPUBLISHED = "unpublished"  # was published, hidden since; its solves stop counting


def stage_of(problem: Problem) -> Stage:
    if problem.published:
        return Stage.PENDING_DRAFT if problem.draft_hash not in ("", problem.package_hash) else Stage.PUBLISHED
    return Stage.UNPUBLISHED if problem.current_test_set_id else Stage.DRAFT


def audit(user, action: str, slug: str = "", summary: str = "") -> AuditEntry:
    return AuditEntry.objects.create(user=user, action=action, problem_slug=slug, summary=summary[:500])


def publish(problem: Problem, package: Package, outcome: GateOutcome, test_set: TestSet, user=None) -> None:
    """Make a gated package live: its fields and test set; call it in the transaction that ends the gate run."""
    with transaction.atomic(savepoint=False):
        fields = record_fields(package, problem.path_order)
        fields["spec"] = fields["spec"] | {"budget_s": outcome.budget_s}
        was_published = Problem.objects.select_for_update().filter(pk=problem.pk, published=True).exists()
        Problem.objects.filter(pk=problem.pk).update(**fields, current_test_set=test_set, published=True)
        if not was_published:  # published (again): its solves count
            refresh_problem_standings(problem.pk)
        problem.wrong_solutions.all().delete()
        WrongSolution.objects.bulk_create(
            WrongSolution(problem=problem, file=w.file, code=w.code, fails_with=w.fails_with,
                          name=w.name, explanation=w.explanation, see=w.see)
            for w in package.wrong
        )
        audit(user, Action.PUBLISH, problem.slug, f"version {package.content_hash[:12]} passed the gate and is live")


def unpublish(problem: Problem, user=None) -> None:
    """Hide a problem from students; their solves of it stop counting."""
    with transaction.atomic():
        Problem.objects.select_for_update().filter(pk=problem.pk).update(published=False)
        refresh_problem_standings(problem.pk)
        audit(user, Action.UNPUBLISH, problem.slug, "hidden from students")


def record_import(problem: Problem, created: bool) -> None:
    """A package from problems/ became the draft (sync); call it in the transaction that stored it."""
    audit(None, Action.SYNC, problem.slug,
          f"{'created' if created else 'draft replaced'} from problems/{problem.slug} ({problem.draft_hash[:12]})")


def finish_dead_gate_runs(now=None) -> list[int]:
    """Fail the gate runs not finished long after they were requested: their worker died or the queue lost them.

    A compare-and-set on the status, so a run that finishes meanwhile keeps its result.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=STALLED_AFTER_S)
    dead = list(GateRun.objects.filter(status__in=[GateStatus.QUEUED, GateStatus.RUNNING], created_at__lt=cutoff)
                .values_list("pk", flat=True))
    failed = []
    for pk in dead:
        if GateRun.objects.filter(pk=pk, status__in=[GateStatus.QUEUED, GateStatus.RUNNING]).update(
                status=GateStatus.DONE, passed=False, finished_at=timezone.now(),
                error="the worker running this gate stopped before it finished; run the checks again") == 1:
            failed.append(pk)
    return failed
