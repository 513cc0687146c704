"""Drafts: the working copy of a package, from git, a zip upload or the browser.

The database is the source of truth for problems: ``Problem.draft_files`` holds
each package's files; a draft goes live only once the publish gate passed on it
(``judge/authoring/gate_runs.py``) and it is published (``judge/authoring/lifecycle.py``).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from engine.package import SLUG, Package, PackageError, load_package
from judge.problems.models import Problem

SAFE_PATH = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99})?$")
MAX_FILES = 100
MAX_FILE_BYTES = 256 * 1024
MAX_PACKAGE_BYTES = 2 * 1024 * 1024


def files_from_folder(path: Path) -> dict[str, str]:
    files = {}
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        name = str(file.relative_to(path))
        try:
            files[name] = file.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise PackageError(f"{path.name}/{name}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return files


def check_files(slug: str, files: dict[str, str]) -> None:
    """Paths and sizes; the contents are checked by ``load_package``."""
    if len(files) > MAX_FILES:
        raise PackageError(f"{slug}: {len(files)} files; at most {MAX_FILES} are allowed")
    total = 0
    for name, text in files.items():
        if not SAFE_PATH.match(name) or ".." in name.split("/"):
            raise PackageError(f"{slug}/{name}: not an allowed file name (letters, digits, _ . -, one folder level)")
        size = len(text.encode("utf-8", errors="surrogatepass"))
        if size > MAX_FILE_BYTES:
            raise PackageError(f"{slug}/{name}: {size:,} bytes; a file may have at most {MAX_FILE_BYTES:,}")
        total += size
    if total > MAX_PACKAGE_BYTES:
        raise PackageError(f"{slug}: {total:,} bytes in all; a package may have at most {MAX_PACKAGE_BYTES:,}")


def package_from_files(slug: str, files: dict[str, str]) -> Package:
    """Validate a package given as {path: text}, exactly as a folder in problems/ would be."""
    if not SLUG.match(slug):
        raise PackageError(f"{slug}: the slug must match {SLUG.pattern}")
    check_files(slug, files)
    with tempfile.TemporaryDirectory(prefix="package-") as tmp:
        folder = Path(tmp) / slug
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        folder.mkdir(exist_ok=True)
        return load_package(folder)


def store_package_draft(
    slug: str, files: dict[str, str], user=None, imported: bool = False, path_order: int | None = None
) -> Problem:
    """Store a new working copy of a package (validated first; a malformed one changes nothing)."""
    package = package_from_files(slug, files)
    known = set(Problem.objects.exclude(slug=slug).values_list("slug", flat=True))
    missing = [s for s in package.prerequisites if s not in known]
    if missing and not imported:
        raise PackageError(f"{slug}/problem.toml: prerequisites name unknown problem(s) {missing}")
    with transaction.atomic():
        problem = Problem.objects.select_for_update().filter(slug=slug).first()
        if problem is None:
            order = path_order if path_order is not None else Problem.objects.count()
            problem = Problem(slug=slug, **record_fields(package, order))  # a draft: not published
        elif not problem.published:
            order = path_order if path_order is not None else problem.path_order
            for name, value in record_fields(package, order).items():
                setattr(problem, name, value)
        problem.draft_files, problem.draft_hash = files, package.content_hash
        if imported:
            problem.imported_hash = package.content_hash
        else:
            problem.edited_by, problem.edited_at = user, timezone.now()
        problem.save()
    return problem


def draft_package(problem: Problem) -> Package:
    return package_from_files(problem.slug, problem.draft_files)


def record_fields(package: Package, path_order: int) -> dict:
    """The model's fields for ``package``: the engine's one list of them, and its place on the path."""
    return package.record() | {"path_order": path_order}
