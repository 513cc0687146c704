"""Reading problems: the access helper, and a published test set as the engine's types."""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone

from engine import members
from engine.arrays import load_inputs, unpack_inputs
from engine.checks import KnownWrong
from engine.pool import draw_cases
from engine.spec import Case, ProblemSpec
from judge.problems.models import (
    STALLED_AFTER_S,
    BenchmarkCase,
    GateRun,
    GateStatus,
    Problem,
    SyncRun,
    TestCase,
    TestSet,
)


def get_problem_for_user(user, slug: str) -> Problem:
    """Published problems for everyone; drafts only for staff."""
    problems = Problem.objects.all() if user.is_staff else Problem.objects.filter(published=True)
    return get_object_or_404(problems, slug=slug)


def problem_spec(problem: Problem) -> ProblemSpec:
    return ProblemSpec.from_dict(problem.spec, settings.MAX_OUTPUT_BYTES)


def load_cases(test_set: TestSet, visible_only: bool = False, probes: bool = True) -> list[Case]:
    """The test set's cases, with every draw of the hidden ones (``engine.pool.draw_cases`` picks a
    submission's); a Run (``visible_only``) gets neither hidden tests nor probe inputs."""
    cases = test_set.cases.prefetch_related("known_wrong")
    if visible_only:
        cases = cases.filter(hidden=False, probe=False)
    elif not probes:
        cases = cases.filter(probe=False)
    return [
        Case(
            c.name,
            c.hidden,
            unpack_inputs(bytes(c.inputs)),
            bytes(c.expected),
            _known_wrong(c),
            c.probe,
            bytes(c.fd_expected) if c.fd_expected is not None else None,
            c.variant,
        )
        for c in cases
    ]


@functools.lru_cache(maxsize=64)
def visible_case_data(test_set_id: int) -> dict[str, tuple[dict[str, Any], Any]]:  # inputs, expected: arrays or members
    """Inputs and expected output of each visible test; a test set never changes once made."""
    data = {}
    for case in TestCase.objects.filter(test_set_id=test_set_id, hidden=False):
        data[case.name] = (load_inputs(bytes(case.inputs)), members.load(bytes(case.expected)))
    return data


def graded_case_data(test_set_id: int, draw: int | None) -> dict[str, tuple[dict[str, Any], Any]]:
    """Inputs and expected output of every test a submission was graded on, hidden ones included, from the
    pool's draw its secret number picked (``engine.pool.draw_cases``): for a course's staff only
    (``judge.display.results``)."""
    rows = list(TestCase.objects.filter(test_set_id=test_set_id, probe=False))
    # A draw reads only name, hidden, probe and variant, which the rows carry as the engine's cases do.
    chosen = cast("list[TestCase]", draw_cases(cast("list[Case]", rows), draw))
    return {case.name: (load_inputs(bytes(case.inputs)), members.load(bytes(case.expected))) for case in chosen}


def load_benchmark(test_set_id: int) -> list[Case]:
    """The secret draws of the test set's benchmark case (``engine/speed.py``), in draw order."""
    return [
        Case(b.name, True, unpack_inputs(bytes(b.inputs)), bytes(b.expected), variant=b.variant)
        for b in BenchmarkCase.objects.filter(test_set_id=test_set_id)
    ]


def _known_wrong(case: TestCase) -> tuple[KnownWrong, ...]:
    return tuple(
        KnownWrong(
            k.name, k.explanation, k.see, k.status, bytes(k.output) if k.output is not None else None, k.signature
        )
        for k in case.known_wrong.all()
    )


def problems_being_prepared() -> int:
    """Problems the running sync set out to list that are neither listed nor given up on (their gate failed):
    the problem list says how many.  Known from the sync's first second (its ``waiting``, read from the
    packages' folders), it only goes down as the gates end; nothing is counted once the sync ends, or when
    it stopped without a word (no gate ended for ``STALLED_AFTER_S``)."""
    fresh = timezone.now() - timedelta(seconds=STALLED_AFTER_S)
    sync = SyncRun.objects.first()  # the latest: a sync stopped midway is replaced by the next
    if sync is None or sync.finished_at or sync.heartbeat_at < fresh or not sync.waiting:
        return 0
    gated = GateRun.objects.filter(trigger="sync", status=GateStatus.DONE, created_at__gte=sync.started_at)
    settled = (
        Problem.objects.filter(slug__in=sync.waiting)
        .filter(Q(published=True) | Q(pk__in=gated.values("problem")))
        .count()
    )
    return max(0, len(sync.waiting) - settled)
