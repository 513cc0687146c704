"""Importing the packages under ``problems/`` (git) into the database, in learning-path order.

Each changed package becomes a draft and goes through the publish gate
(``judge/problems/gates.py``); ``sync_problems`` is idempotent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from engine.package import Package, PackageError, discover, load_package, load_tracks
from judge.problems.drafts import files_from_folder, save_draft
from judge.problems.gates import run_gate_now
from judge.problems.models import GateRun, Problem
from judge.sandboxes import lazy_sandbox
from sandbox.backends.base import Sandbox


@dataclass
class SyncOutcome:
    slug: str
    action: str  # created | updated | unchanged | skipped | draft
    cases: int = 0
    note: str = ""


def learning_path(packages: list[Package], known: set[str], tracks: list[str] = ()) -> list[str]:
    """Order slugs so that prerequisites come first (ties: the track's place in ``tracks``, difficulty, slug)."""
    by_slug = {p.slug: p for p in packages}
    for package in packages:
        missing = [s for s in package.prerequisites if s not in by_slug and s not in known]
        if missing:
            raise PackageError(f"{package.slug}/problem.toml: prerequisites name unknown problem(s) {missing}")
    rank = {"easy": 0, "medium": 1, "hard": 2}
    ordered, placed = [], set(known) - set(by_slug)
    track_rank = {slug: index for index, slug in enumerate(tracks)}
    pending = sorted(packages, key=lambda p: (track_rank.get(p.track, len(track_rank)), rank[p.difficulty], p.slug))
    while pending:
        ready = [p for p in pending if all(s in placed for s in p.prerequisites)]
        if not ready:
            raise PackageError(f"prerequisites form a cycle among {[p.slug for p in pending]}")
        ordered.append(ready[0].slug)
        placed.add(ready[0].slug)
        pending.remove(ready[0])
    return ordered


def sync_problems(root: Path | None = None, only: list[str] | None = None, force: bool = False,
                  sandbox: Sandbox | None = None) -> list[SyncOutcome]:
    """Import every package under ``root`` into the database and run its gate; idempotent.

    A problem edited in the browser since its last import is skipped (its draft
    in the database is the newer version) unless ``force`` is set.
    """
    root = root or settings.PROBLEMS_DIR
    paths = discover(root)
    packages = [load_package(path) for path in paths]
    if only:
        unknown = set(only) - {p.slug for p in packages}
        if unknown:
            raise PackageError(f"no package named {', '.join(sorted(unknown))} under {root}")
    order = learning_path(packages, set(Problem.objects.values_list("slug", flat=True)),
                          [track["slug"] for track in load_tracks(root)])
    files = {path.name: files_from_folder(path) for path in paths}
    outcomes = []
    with lazy_sandbox(sandbox) as box:
        for package in sorted(packages, key=lambda p: order.index(p.slug)):  # what one builds on is gated first
            if only and package.slug not in only:
                continue
            outcomes.append(sync_package(package, order.index(package.slug), files[package.slug], box, force))
    return outcomes


def sync_package(package: Package, path_order: int, files: dict[str, str], sandbox: Sandbox,
                 force: bool = False) -> SyncOutcome:
    existing = Problem.objects.filter(slug=package.slug).first()
    imported = existing and (existing.imported_hash or existing.package_hash)
    edited = existing and existing.draft_hash not in ("", imported)  # in the browser, since the import
    if existing and imported == package.content_hash and existing.current_test_set_id and not (force and edited):
        if existing.path_order != path_order:
            Problem.objects.filter(pk=existing.pk).update(path_order=path_order)
        return SyncOutcome(package.slug, "unchanged", existing.current_test_set.cases.filter(variant=0).count())
    if edited and not force:
        return SyncOutcome(package.slug, "skipped", 0, "edited in the browser since the last import; "
                                                       "download it into problems/ or pass --force")
    problem = save_draft(package.slug, files, imported=True, path_order=path_order)
    run = run_gate_now(problem, trigger="sync", sandbox=sandbox)
    if not run.passed:
        return SyncOutcome(package.slug, "draft", 0, _gate_summary(run))
    problem.refresh_from_db()
    tests = problem.current_test_set.cases.filter(variant=0).count()  # not the pool's draws
    return SyncOutcome(package.slug, "updated" if existing else "created", tests)


def _gate_summary(run: GateRun) -> str:
    failed = [c for c in run.checks if c.get("passed") is False]
    if run.error:
        return f"gate failed: {run.error}"
    return "gate failed: " + "; ".join(f"{c['key']}: {c['detail'].splitlines()[0]}" for c in failed)


