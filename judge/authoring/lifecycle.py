"""A problem's lifecycle, and the one place that moves it.

    draft --checks pass, Publish--> published --edit--> published with a pending draft
    published with a pending draft --checks pass, Publish--> published
    published --unpublish--> unpublished --Publish (a draft whose checks passed)--> published

``Problem.published`` and the live fields change only here, each transition in one transaction with its
audit row: ``publish_draft`` (staff publish a draft whose gate run passed, after reviewing what changes),
``publish`` (that, and what ``sync_problems`` and ``validate_problem`` do when a gate passes: git is their
review), ``unpublish``, and ``record_import`` (a package from problems/ stored as the draft). A gate run
that passes in the workbench stores the version's test set and changes nothing students see. Saving a
draft (``judge.problems.drafts.store_package_draft``) does not either, except for a problem that was never
published, whose record is the draft.

A gate run is a state machine too, and its transitions are all here as well:

    queue_gate_run --> queued --start_gate_run (compare-and-set)--> running --end_gate_run--> done
    queued --fail_gate_run (the queue is unreachable)--> done, failed
    queued or running --replace_gate_runs (a newer import of the same problem)--> done, failed
    queued or running --finish_dead_gate_runs (the sweep: its worker died)--> done, failed

``judge.authoring.gate_runs`` runs the gate between ``start_gate_run`` and ``end_gate_run``; sync queues
one per imported draft. tests/test_state_owners.py fails if another module writes a gate run's status.
"""

from __future__ import annotations

from datetime import timedelta
from enum import StrEnum

from django.db import transaction
from django.utils import timezone

from engine.package import Package, PackageError
from judge.authoring.models import Action, AuditEntry
from judge.problems.drafts import draft_package, record_fields
from judge.problems.models import STALLED_AFTER_S, GateRun, GateStatus, Problem, SyncRun, TestSet, WrongSolution
from judge.standings.services import refresh_problem_standings


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


class CannotPublish(Exception):
    """Why a draft cannot be published now; nothing was changed."""


def passed_run(problem: Problem, version: str) -> GateRun | None:
    """The latest gate run that passed on ``version`` of the package, if any."""
    return problem.gate_runs.filter(package_hash=version, status=GateStatus.DONE, passed=True).first()


def publish_draft(problem: Problem, version: str, user=None) -> TestSet:
    """Publish the draft whose hash is ``version`` (the one the author reviewed), once its checks have passed."""
    with transaction.atomic():
        problem = Problem.objects.select_for_update().get(pk=problem.pk)
        if problem.draft_hash != version:
            raise CannotPublish("the draft changed since you reviewed it; review the changes again")
        if problem.published and problem.package_hash == version:
            raise CannotPublish("this draft is already live")
        run = passed_run(problem, version)
        test_set = TestSet.objects.filter(problem=problem, version=version).first()
        if run is None or test_set is None or test_set.budget_s is None:
            raise CannotPublish("run the checks on this draft first: only a draft whose checks passed is published")
        try:
            package = draft_package(problem)
        except PackageError as exc:  # the checks passed on these files; a rule tightened since
            raise CannotPublish(str(exc)) from None
        publish(problem, package, test_set.budget_s, test_set, user, f"gate run #{run.pk}")
    return test_set


def publish(
    problem: Problem, package: Package, budget_s: float | None, test_set: TestSet, user=None, passed: str = "the gate"
) -> None:
    """Make a gated package live: its fields and test set; call it in the transaction that ends the gate run
    (sync, ``validate_problem``) or through ``publish_draft``."""
    with transaction.atomic(savepoint=False):
        fields = record_fields(package, problem.path_order)
        fields["spec"] = fields["spec"] | {"budget_s": budget_s}
        was_published = Problem.objects.select_for_update().filter(pk=problem.pk, published=True).exists()
        Problem.objects.filter(pk=problem.pk).update(**fields, current_test_set=test_set, published=True)
        if not was_published:  # published (again): its solves count
            refresh_problem_standings(problem.pk)
        problem.wrong_solutions.all().delete()
        WrongSolution.objects.bulk_create(
            WrongSolution(
                problem=problem,
                file=w.file,
                code=w.code,
                fails_with=w.fails_with,
                name=w.name,
                explanation=w.explanation,
                see=w.see,
            )
            for w in package.wrong
        )
        audit(user, Action.PUBLISH, problem.slug, f"version {package.content_hash[:12]} passed {passed} and is live")


def unpublish(problem: Problem, user=None) -> None:
    """Hide a problem from students; their solves of it stop counting."""
    with transaction.atomic():
        Problem.objects.select_for_update().filter(pk=problem.pk).update(published=False)
        refresh_problem_standings(problem.pk)
        audit(user, Action.UNPUBLISH, problem.slug, "hidden from students")


def record_import(problem: Problem, created: bool) -> None:
    """A package from problems/ became the draft (sync); call it in the transaction that stored it."""
    audit(
        None,
        Action.SYNC,
        problem.slug,
        f"{'created' if created else 'draft replaced'} from problems/{problem.slug} ({problem.draft_hash[:12]})",
    )


# --------------------------------------------------------------------------
# A gate run's states
# --------------------------------------------------------------------------

UNFINISHED = (GateStatus.QUEUED, GateStatus.RUNNING)


def queue_gate_run(problem: Problem, user=None, trigger: str = "manual") -> GateRun:
    """A run on the problem's current draft, queued; the caller sends it (or runs it) once this commits."""
    return GateRun.objects.create(problem=problem, package_hash=problem.draft_hash, requested_by=user, trigger=trigger)


def start_gate_run(run_id: int) -> bool:
    """Claim a queued run (a compare-and-set): True for the one caller that runs it."""
    return GateRun.objects.filter(pk=run_id, status=GateStatus.QUEUED).update(status=GateStatus.RUNNING) == 1


def end_gate_run(
    run_id: int, passed: bool, error: str = "", checks: list | None = None, test_order: list | None = None
) -> None:
    """The claimed run's result; call it in the transaction that stores (and publishes) what passed. Not a
    compare-and-set: the caller holds the claim, and its result wins over a sweep that took it for dead."""
    result = {"checks": checks, "test_order": test_order}
    GateRun.objects.filter(pk=run_id).update(
        status=GateStatus.DONE,
        passed=passed,
        error=error,
        finished_at=timezone.now(),
        **{k: v for k, v in result.items() if v is not None},
    )


def fail_gate_run(run_id: int, error: str) -> bool:
    """Fail a run still queued (its message could not be sent); False if someone took it meanwhile."""
    return (
        GateRun.objects.filter(pk=run_id, status=GateStatus.QUEUED).update(
            status=GateStatus.DONE, passed=False, error=error, finished_at=timezone.now()
        )
        == 1
    )


def replace_gate_runs(problem: Problem, trigger: str, error: str) -> int:
    """Fail the problem's unfinished runs of ``trigger`` (a newer import replaces them); how many."""
    return GateRun.objects.filter(problem=problem, trigger=trigger, status__in=UNFINISHED).update(
        status=GateStatus.DONE, passed=False, error=error, finished_at=timezone.now()
    )


def finish_dead_gate_runs(now=None) -> list[int]:
    """Fail the gate runs not finished long after they were requested: their worker died or the queue lost them.

    A compare-and-set on the status, so a run that finishes meanwhile keeps its result.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=STALLED_AFTER_S)
    unfinished = GateRun.objects.filter(status__in=UNFINISHED, created_at__lt=cutoff)
    # A sync queues every gate at once and runs them for longer than that on a slow machine: its runs are
    # alive while it beats (``SyncRun.heartbeat_at``, renewed as each of its gates ends).
    sync = SyncRun.objects.filter(finished_at__isnull=True, heartbeat_at__gte=cutoff).first()
    if sync is not None:
        unfinished = unfinished.exclude(trigger="sync", created_at__gte=sync.started_at)
    dead = list(unfinished.values_list("pk", flat=True))
    failed = []
    for pk in dead:
        if (
            GateRun.objects.filter(pk=pk, status__in=UNFINISHED).update(
                status=GateStatus.DONE,
                passed=False,
                finished_at=timezone.now(),
                error="the worker running this gate stopped before it finished; run the checks again",
            )
            == 1
        ):
            failed.append(pk)
    return failed
