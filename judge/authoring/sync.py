"""Importing the packages under ``problems/`` (git) into the database, in learning-path order.

Each changed package becomes a draft and goes through the publish gate
(``judge/authoring/gate_runs.py``); ``sync_problems`` is idempotent.
"""

from __future__ import annotations

import contextlib
import queue
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from engine.package import Package, PackageError, discover, load_package, load_tracks
from engine.verdicts import TestStatus
from judge.authoring import lifecycle
from judge.authoring.gate_runs import LISTING_MARK, Listed, execute_gate_run, finish_gate_run, list_gate_run
from judge.lib.sandbox_backend import lazy_sandbox
from judge.problems.drafts import files_from_folder, store_package_draft
from judge.problems.models import GateRun, Problem, SyncRun
from sandbox.backends.base import Sandbox

TLE = TestStatus.TIME_LIMIT_EXCEEDED


@dataclass
class SyncOutcome:
    slug: str
    action: str  # created | updated | unchanged | skipped | draft
    cases: int = 0
    note: str = ""


@dataclass
class Queued:
    """A package imported as the draft, its gate run queued."""

    run: GateRun
    created: bool
    listing: bool = False  # not listed yet: listed after the gate's first part (``gate_runs.list_gate_run``)


def learning_path(
    packages: list[Package], known: set[str], tracks: Sequence[str] = (), listed: Sequence[str] = ()
) -> list[str]:
    """Order slugs so that prerequisites come first (ties: the track's place in ``tracks``, the problem's place in
    ``listed``, the order tracks.toml lists its track's problems in, then difficulty and slug)."""
    by_slug = {p.slug: p for p in packages}
    for package in packages:
        missing = [s for s in package.prerequisites if s not in by_slug and s not in known]
        if missing:
            raise PackageError(f"{package.slug}/problem.toml: prerequisites name unknown problem(s) {missing}")
    rank = {"easy": 0, "medium": 1, "hard": 2}
    ordered, placed = [], set(known) - set(by_slug)
    track_rank = {slug: index for index, slug in enumerate(tracks)}
    listed_rank = {slug: index for index, slug in enumerate(listed)}
    pending = sorted(
        packages,
        key=lambda p: (
            track_rank.get(p.track, len(track_rank)),
            listed_rank.get(p.slug, len(listed_rank)),
            rank[p.difficulty],
            p.slug,
        ),
    )
    while pending:
        ready = [p for p in pending if all(s in placed for s in p.prerequisites)]
        if not ready:
            raise PackageError(f"prerequisites form a cycle among {[p.slug for p in pending]}")
        ordered.append(ready[0].slug)
        placed.add(ready[0].slug)
        pending.remove(ready[0])
    return ordered


def sync_problems(
    root: Path | None = None,
    only: list[str] | None = None,
    force: bool = False,
    sandbox: Sandbox | None = None,
    jobs: int = 1,
) -> list[SyncOutcome]:
    """Import every package under ``root`` into the database and run its gate; idempotent.

    First the sync says which problems it may list (``SyncRun``: the packages' folders not listed yet), so
    the problem list counts them from its first second.  Then two passes: every changed package becomes a
    draft with a queued gate run at once, then the gates run, ``jobs`` at a time, each after the problems
    it builds on.  A problem edited in the browser since its last import is skipped (its draft in the
    database is the newer version) unless ``force`` is set.
    """
    root = root or settings.PROBLEMS_DIR
    paths = discover(root)
    with announced([path.name for path in paths if not only or path.name in only]) as sync:
        chosen, imported = import_packages(root, paths, only, force)
        gates = [(package, item) for package, item in zip(chosen, imported) if isinstance(item, Queued)]
        narrow(sync, {package.slug for package, _item in gates})
        gated = gate_in_order(gates, sandbox, jobs, beat=lambda: beat(sync))
    return [gated[item.run.pk] if isinstance(item, Queued) else item for item in imported]


def import_packages(
    root: Path, paths: list[Path], only: list[str] | None, force: bool
) -> tuple[list[Package], list[SyncOutcome | Queued]]:
    """The packages chosen (``only``, or all), in learning-path order, and what importing each did."""
    packages = [load_package(path) for path in paths]
    if only:
        unknown = set(only) - {p.slug for p in packages}
        if unknown:
            raise PackageError(f"no package named {', '.join(sorted(unknown))} under {root}")
    tracks = load_tracks(root)
    order = learning_path(
        packages,
        set(Problem.objects.values_list("slug", flat=True)),
        [track["slug"] for track in tracks],
        [slug for track in tracks for slug in track["problems"]],
    )
    files = {path.name: files_from_folder(path) for path in paths}
    chosen = sorted((p for p in packages if not only or p.slug in only), key=lambda p: order.index(p.slug))
    return chosen, [import_package(p, order.index(p.slug), files[p.slug], force) for p in chosen]


@contextlib.contextmanager
def announced(slugs: list[str]) -> Iterator[SyncRun]:
    """A ``SyncRun`` waiting for ``slugs`` not listed yet, finished however the sync ends."""
    listed = set(Problem.objects.filter(slug__in=slugs, published=True).values_list("slug", flat=True))
    sync = SyncRun.objects.create(waiting=[slug for slug in slugs if slug not in listed])
    try:
        yield sync
    finally:
        SyncRun.objects.filter(pk=sync.pk).update(finished_at=timezone.now())


def narrow(sync: SyncRun, gating: set[str]) -> None:
    """Once imported, only the problems whose gates will run are waited for (not those unchanged or skipped)."""
    sync.waiting = [slug for slug in sync.waiting if slug in gating]
    SyncRun.objects.filter(pk=sync.pk).update(waiting=sync.waiting, heartbeat_at=timezone.now())


def beat(sync: SyncRun) -> None:
    SyncRun.objects.filter(pk=sync.pk).update(heartbeat_at=timezone.now())


def import_package(
    package: Package, path_order: int, files: dict[str, str], force: bool = False
) -> SyncOutcome | Queued:
    """Store a changed package as the draft with a queued gate run; an unchanged or skipped one says so."""
    existing = Problem.objects.filter(slug=package.slug).select_related("current_test_set").first()
    imported = existing and (existing.imported_hash or existing.package_hash)
    edited = existing and existing.draft_hash not in ("", imported)  # in the browser, since the import
    current = existing.current_test_set if existing else None
    if (
        existing
        and current
        and not current.version.startswith(LISTING_MARK)
        and imported == package.content_hash
        and not (force and edited)
    ):
        if existing.path_order != path_order:
            Problem.objects.filter(pk=existing.pk).update(path_order=path_order)
        return SyncOutcome(package.slug, "unchanged", current.cases.filter(variant=0).count())
    if edited and not force:
        return SyncOutcome(
            package.slug,
            "skipped",
            0,
            "edited in the browser since the last import; download it into problems/ or pass --force",
        )
    with transaction.atomic():
        problem = store_package_draft(package.slug, files, imported=True, path_order=path_order)
        lifecycle.record_import(problem, created=existing is None)
        # A sync stopped midway (Ctrl-C on bin/run) left its queued runs: this import replaces them.
        lifecycle.replace_gate_runs(problem, "sync", "replaced by a newer import")
        run = lifecycle.queue_gate_run(problem, trigger="sync")
    return Queued(run, created=existing is None, listing=not (existing and existing.published))


def gate_in_order(
    gates: list[tuple[Package, Queued]], sandbox: Sandbox | None, jobs: int, beat: Callable[[], None] = lambda: None
) -> dict[int, SyncOutcome]:
    """Run the queued gates (in learning-path order), ``jobs`` at once; ``beat`` is called as each ends.

    A problem not listed yet is listed as soon as the first part of its gate proves its expected outputs right;
    the rest of those gates (known-wrong solutions, secret draws, speed benchmark: most of the work) runs once
    every problem is listed, so a fresh start lists the catalogue in a fraction of the gates' time.
    """
    listed: dict[int, Listed] = {}

    def first(item: Queued, box: Sandbox) -> SyncOutcome | None:
        if item.listing and (done := list_gate_run(item.run.pk, box)) is not None:
            listed[item.run.pk] = done
            beat()
            return None
        return gate_imported(item, box, beat)

    def rest(item: Queued, box: Sandbox) -> SyncOutcome:
        finish_gate_run(listed[item.run.pk], box)
        return gate_imported(item, box, beat, ran=True)

    with sandboxes(sandbox, min(jobs, len(gates))) as boxes:
        outcomes = scheduled(gates, boxes, first)
        outcomes.update(scheduled([gate for gate in gates if gate[1].run.pk in listed], boxes, rest))
    return {pk: outcome for pk, outcome in outcomes.items() if outcome is not None}


@contextlib.contextmanager
def sandboxes(sandbox: Sandbox | None, jobs: int) -> Iterator[queue.SimpleQueue[Sandbox]]:
    """``jobs`` sandboxes (``sandbox`` itself when one is given: it is not shared by threads), each warm after
    its first gate."""
    boxes: queue.SimpleQueue[Sandbox] = queue.SimpleQueue()
    with contextlib.ExitStack() as stack:
        if sandbox is not None or jobs <= 1:
            boxes.put(stack.enter_context(lazy_sandbox(sandbox)))
        else:
            for _ in range(jobs):
                boxes.put(stack.enter_context(lazy_sandbox(None)))
        yield boxes


def scheduled(
    gates: list[tuple[Package, Queued]],
    boxes: queue.SimpleQueue[Sandbox],
    work: Callable[[Queued, Sandbox], SyncOutcome | None],
) -> dict[int, SyncOutcome | None]:
    """``work`` on each gate, one per sandbox in ``boxes`` at once.  Whenever a sandbox is free it takes the
    first gate whose problems it builds on are through theirs (it runs with their published references): a
    gate that must wait never holds a job another one could use."""
    jobs = boxes.qsize()

    def gate(item: Queued) -> SyncOutcome | None:
        box = boxes.get()  # a sandbox runs one job at a time
        try:
            return work(item, box)
        finally:
            boxes.put(box)
            if jobs > 1:
                connection.close()  # this thread's

    if jobs <= 1 or len(gates) <= 1:
        return {item.run.pk: gate(item) for _package, item in gates}
    waiting, unfinished = list(gates), {package.slug for package, _item in gates}
    running: dict[Future, tuple[Package, Queued]] = {}
    outcomes: dict[int, SyncOutcome | None] = {}
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="gate") as pool:
        while waiting or running:
            while len(running) < jobs and (ready := next_ready(waiting, unfinished, idle=not running)):
                waiting.remove(ready)
                running[pool.submit(gate, ready[1])] = ready
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                package, item = running.pop(future)
                unfinished.discard(package.slug)
                outcomes[item.run.pk] = future.result()
    return outcomes


def next_ready(
    waiting: list[tuple[Package, Queued]], unfinished: set[str], idle: bool
) -> tuple[Package, Queued] | None:
    """The first gate whose problems it builds on are through theirs, a gate that cannot be hurried before
    the others (``unhurried_s``); with no gate running, the first anyway (the learning path puts what a
    problem builds on before it, so this happens only if that gate failed)."""
    ready = [gate for gate in waiting if unfinished.isdisjoint(gate[0].problem.builds_on)]
    if ready:
        return min(ready, key=lambda gate: -unhurried_s(gate[0]))  # min keeps the learning path among equals
    return waiting[0] if idle and waiting else None


def unhurried_s(package: Package) -> float:
    """Seconds its gate takes however fast the machine: a known-wrong solution that must run out the time
    limit to be shown slow.  Started first, such a gate runs beside the others instead of after them all."""
    return sum(package.problem.time_limit_s for wrong in package.wrong if wrong.fails_with == TLE)


def gate_imported(
    item: Queued, sandbox: Sandbox, beat: Callable[[], None] = lambda: None, ran: bool = False
) -> SyncOutcome:
    """Gate an imported package (unless it ``ran``) and say what became of it."""
    run, problem = item.run, item.run.problem
    if not ran:
        execute_gate_run(run.pk, sandbox, publish=True)  # git is where a synced package is reviewed
    beat()
    run.refresh_from_db()
    if not run.passed:
        return SyncOutcome(problem.slug, "draft", 0, _gate_summary(run))
    problem.refresh_from_db()
    # A problem whose gate passed has its test set.  Not the pool's draws:
    tests = problem.current_test_set.cases.filter(variant=0).count()  # type: ignore[union-attr]
    return SyncOutcome(problem.slug, "created" if item.created else "updated", tests)


def _gate_summary(run: GateRun) -> str:
    failed = [c for c in run.checks if c.get("passed") is False]
    if run.error:
        return f"gate failed: {run.error}"
    return "gate failed: " + "; ".join(f"{c['key']}: {c['detail'].splitlines()[0]}" for c in failed)
