"""Write operations of authoring: new problems, edits, zips, rejudges, and the audit log.

Views call these; each records who did what in ``AuditEntry``.  Drafts are stored by
``judge/problems/drafts.py``, gate runs by ``gate_runs.py``, and ``lifecycle.py`` publishes and unpublishes.
"""

from __future__ import annotations

import io
import logging
import lzma
import re
import tomllib
import zipfile
import zlib
from datetime import timedelta

import tomli_w
from django.db import transaction
from django.utils import timezone

from engine.package import SLUG, PackageError
from judge.authoring import lifecycle
from judge.authoring.gate_runs import request_gate_run
from judge.authoring.lifecycle import audit
from judge.authoring.models import Action, PromotedCluster, RejudgeBatch
from judge.authoring.queries import rejudge_candidates
from judge.authoring.signals import rejudge_requested
from judge.lib.broker import enqueue_on_commit, send_task
from judge.problems.drafts import MAX_FILES, store_package_draft
from judge.problems.models import STALLED_AFTER_S, GateRun, Problem
from judge.submissions.models import Status, Submission
from judge.submissions.services.intake import requeue

log = logging.getLogger(__name__)
REJUDGE_TASK = "judge.authoring.tasks.rejudge_batch"  # sent by name: judge.authoring.tasks imports this module

MAX_ZIP_BYTES = 5 * 1024 * 1024
IGNORED = ("__pycache__/", ".DS_Store", ".git/")
READABLE_COMPRESSION = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


# --------------------------------------------------------------------------
# Problems
# --------------------------------------------------------------------------


SKELETON_MANIFEST = """\
slug = "{slug}"
title = "{title}"
difficulty = "easy"
tags = []
prerequisites = []
summary = ""
# The track of the catalogue it belongs to: a slug of problems/tracks.toml ("" for none).
track = ""

[function]
name = "{function}"
params = [{quoted}]

[limits]
time_limit_s = 2.0
memory_mb = 512

[checking]
rtol = 1e-7
atol = 1e-9

[tests]
seed = 1

# A mistake students make, run by the gate: it must fail with this status on at least one hidden test
# (wrong_type, wrong_dtype, wrong_shape, wrong_value, input_mutated, runtime_error or a limit), and a
# student whose result matches it on the same inputs is shown its name and explanation. Replace it with
# the mistakes students really make; the catalogue has three or more per problem.
[[wrong]]
file = "wrong/returns_the_input.py"
fails_with = "wrong_value"
name = "The input returned unchanged"
explanation = "Returning a copy of the input skips the computation; explain here why a student might do it."
see = "theory#background"
"""
SKELETON_TESTS = """\
import numpy as np


def generate(rng):
    yield {{"name": "example_1", "hidden": False, "args": {{{example}}}}}
    for i in range(5):
        yield {{"name": f"random_{{i}}", "hidden": True, "args": {{{random}}}}}
"""


def skeleton_files(slug: str, title: str, function: str, params: list[str]) -> dict[str, str]:
    """A new package that loads but fails the gate until the author writes the reference."""
    signature = f"def {function}({', '.join(params)}):\n"
    return {
        "problem.toml": SKELETON_MANIFEST.format(
            slug=slug, title=title, function=function, quoted=", ".join(f'"{p}"' for p in params)
        ),
        "statement.md": f"# {title}\n\nDescribe the task here.\n",
        "theory.md": "## Background\n\nExplain the idea here.\n",
        "starter.py": f"import numpy as np\n\n\n{signature}    raise NotImplementedError\n",
        "solution.py": f"import numpy as np\n\n\n{signature}    raise NotImplementedError('write the reference')\n",
        "wrong/returns_the_input.py": (
            f"import numpy as np\n\n\n{signature}"
            f"    return np.array({params[0] if params else 0.0}, dtype=np.float64)\n"
        ),
        "generator.py": SKELETON_TESTS.format(
            example=", ".join(f'"{p}": np.arange(6.0).reshape(2, 3)' for p in params),
            random=", ".join(f'"{p}": rng.standard_normal((2, 3))' for p in params),
        ),
    }


@transaction.atomic  # the action and its audit row commit together
def create_problem(user, slug: str, title: str, function: str, params: list[str]) -> Problem:
    if not SLUG.match(slug):
        raise PackageError(f"slug must match {SLUG.pattern}, got {slug!r}")
    if Problem.objects.filter(slug=slug).exists():
        raise PackageError(f"slug {slug!r} is taken")
    if not title.strip() or '"' in title or "\\" in title or "\n" in title:
        raise PackageError("title must be one line without quotes or backslashes")
    problem = store_package_draft(slug, skeleton_files(slug, title.strip(), function, params), user=user)
    audit(user, Action.CREATE, slug, f"created {slug!r}")
    return problem


@transaction.atomic
def edit_draft(user, problem: Problem, files: dict[str, str]) -> Problem:
    before = problem.draft_files
    problem = store_package_draft(problem.slug, files, user=user)
    changed = sorted(name for name in set(before) | set(files) if before.get(name) != files.get(name))
    audit(user, Action.EDIT, problem.slug, "changed " + (", ".join(changed) or "nothing"))
    return problem


@transaction.atomic
def run_checks(user, problem: Problem) -> GateRun:
    run = request_gate_run(problem, user)
    audit(user, Action.GATE, problem.slug, f"gate run #{run.pk} on {problem.draft_hash[:12]}")
    return run


def unpublish(user, problem: Problem) -> None:
    lifecycle.unpublish(problem, user)


# --------------------------------------------------------------------------
# Zips, in the format of problems/<slug>/
# --------------------------------------------------------------------------


def package_zip(problem: Problem) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in sorted(problem.draft_files.items()):
            archive.writestr(f"{problem.slug}/{name}", text)
    return buffer.getvalue()


def read_package_zip(data: bytes, filename: str = "upload.zip") -> tuple[str, dict[str, str]]:
    """The slug and files of an uploaded zip holding one folder ``<slug>/``; PackageError says what is wrong."""
    if len(data) > MAX_ZIP_BYTES:
        raise PackageError(f"{filename}: {len(data):,} bytes; the limit is {MAX_ZIP_BYTES:,}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise PackageError(f"{filename}: not a zip file") from None
    except (EOFError, OSError, ValueError, NotImplementedError) as exc:  # a damaged directory at the end
        raise PackageError(f"{filename}: a damaged zip file ({exc})") from None
    entries = [i for i in archive.infolist() if not i.is_dir() and not any(x in i.filename for x in IGNORED)]
    if len(entries) > MAX_FILES:
        raise PackageError(f"{filename}: {len(entries)} files; a package may have at most {MAX_FILES}")
    tops = {entry.filename.split("/", 1)[0] for entry in entries}
    if len(tops) != 1 or any("/" not in entry.filename for entry in entries):
        raise PackageError(
            f"{filename}: must hold exactly one folder, named after the problem's slug "
            f"(found {', '.join(sorted(tops)) or 'nothing'})"
        )
    slug = tops.pop()
    files, total = {}, 0
    for entry in entries:
        name = entry.filename.split("/", 1)[1]
        total += entry.file_size
        if total > 4 * MAX_ZIP_BYTES:
            raise PackageError(f"{filename}: too large once unpacked")
        files[name] = _read_entry(archive, entry, f"{slug}/{name}")
    return slug, files


def _read_entry(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, label: str) -> str:
    """One file's text; a damaged, encrypted or exotic entry is a PackageError naming it, never a crash."""
    if entry.flag_bits & 0x1:
        raise PackageError(f"{label}: encrypted; upload a zip made without a password")
    if entry.compress_type not in READABLE_COMPRESSION:
        raise PackageError(
            f"{label}: compressed with method {entry.compress_type}, which the site cannot read; "
            "zip it again with the usual deflate compression"
        )
    try:
        data = archive.read(entry)
    except zipfile.BadZipFile as exc:  # "Bad CRC-32": the sizes or the checksum do not match the data
        raise PackageError(
            f"{label}: damaged ({exc}); its contents do not match the sizes and checksum the zip records"
        ) from None
    except (zlib.error, EOFError, lzma.LZMAError, OSError) as exc:
        raise PackageError(f"{label}: damaged; its compressed data cannot be unpacked ({exc})") from None
    except (RuntimeError, NotImplementedError) as exc:  # what zipfile raises for what it does not support
        raise PackageError(f"{label}: cannot be read ({exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PackageError(f"{label}: not UTF-8 ({exc.reason} at byte {exc.start})") from None


@transaction.atomic
def upload_zip(user, data: bytes, filename: str) -> Problem:
    slug, files = read_package_zip(data, filename)
    existed = Problem.objects.filter(slug=slug).exists()
    problem = store_package_draft(slug, files, user=user)
    audit(user, Action.UPLOAD, slug, f"{'replaced the draft' if existed else 'created'} from {filename}")
    return problem


# --------------------------------------------------------------------------
# Rejudge: back to the queue against the current tests, claimed and recorded as usual
# --------------------------------------------------------------------------


def request_rejudge(
    user, scope: str, problem: Problem | None = None, submission: Submission | None = None
) -> RejudgeBatch:

    chosen = rejudge_candidates(scope, problem, submission)
    ids = list(chosen.order_by("pk").values_list("pk", flat=True))
    with transaction.atomic():
        batch = RejudgeBatch.objects.create(
            requested_by=user,
            scope=scope,
            problem=problem or (submission.problem if submission else None),
            submission_ids=ids,
            total=len(ids),
        )
        enqueue_on_commit(REJUDGE_TASK, batch.pk)
        target = submission.pk if submission else (problem.slug if problem else "all problems")
        slug = batch.problem.slug if batch.problem else ""
        audit(user, Action.REJUDGE, slug, f"{scope} {target}: {len(ids)} submissions")
        rejudge_requested.send(sender=RejudgeBatch, batch=batch)
    return batch


def run_rejudge_batch(batch_id: int, chunk: int = 200) -> int:
    """Put the batch's finished submissions back in the queue with their problem's current test set,
    a chunk at a time (``submissions.services.intake.requeue`` owns the state change)."""
    batch = RejudgeBatch.objects.get(pk=batch_id)
    RejudgeBatch.objects.filter(pk=batch_id, started_at__isnull=True).update(started_at=timezone.now())
    current = dict(Problem.objects.filter(current_test_set__isnull=False).values_list("pk", "current_test_set"))
    requeued = 0
    for start in range(0, len(batch.submission_ids), chunk):
        requeued += requeue(batch.submission_ids[start : start + chunk], current, finished_before=batch.created_at)
        RejudgeBatch.objects.filter(pk=batch_id).update(requeued=requeued)
    RejudgeBatch.objects.filter(pk=batch_id).update(queued_all_at=timezone.now())
    return requeued


def resume_stalled_rejudges(now=None) -> list[int]:
    """Send again the rejudge batches not all queued long after they were requested: their worker died or the
    broker lost the message. Running a batch again requeues only what was not graded again since."""
    cutoff = (now or timezone.now()) - timedelta(seconds=STALLED_AFTER_S)
    stalled = list(
        RejudgeBatch.objects.filter(queued_all_at__isnull=True, created_at__lt=cutoff).values_list("pk", flat=True)
    )
    for batch_id in stalled:
        send_task(REJUDGE_TASK, batch_id)
    return stalled


def rejudge_progress(batch: RejudgeBatch) -> dict:
    done = Submission.objects.filter(
        pk__in=batch.submission_ids, status=Status.DONE, finished_at__gte=batch.created_at
    ).count()
    return {
        "total": batch.total,
        "requeued": batch.requeued,
        "done": done,
        "finished": batch.queued_all_at is not None and done >= batch.requeued,
    }


# --------------------------------------------------------------------------
# Misconception mining: a cluster of failing submissions becomes a known-wrong solution
# --------------------------------------------------------------------------


def wrong_file_for(name: str, files: dict[str, str]) -> str:
    """wrong/<the name as a slug>.py, numbered if the draft has that file already."""
    stem = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:60].rstrip("_") or "mined"
    candidate, n = f"wrong/{stem}.py", 2
    while candidate in files:
        candidate, n = f"wrong/{stem}_{n}.py", n + 1
    return candidate


def promote_cluster(user, problem: Problem, cluster, name: str, explanation: str, see: str = "") -> GateRun:
    """Write the cluster's sample code as a known-wrong solution of the draft, declared in its problem.toml,
    and run the checks; once they pass, publishing the draft makes the misconception live."""
    manifest = tomllib.loads(problem.draft_files.get("problem.toml", ""))
    if any(w.get("name") == name for w in manifest.get("wrong", [])):
        raise PackageError(f"the problem already has a misconception named {name!r}")
    file = wrong_file_for(name, problem.draft_files)
    entry = {"file": file, "fails_with": cluster.fails_with, "name": name, "explanation": explanation}
    if see:
        entry["see"] = see
    header = (
        f"# Known-wrong: {name}\n# Mined from the submissions of {cluster.students} student"
        f"{'s' if cluster.students != 1 else ''} (cluster {cluster.id}), comments removed.\n"
    )
    toml = problem.draft_files["problem.toml"].rstrip("\n") + "\n\n" + tomli_w.dumps({"wrong": [entry]})
    with transaction.atomic():
        problem = edit_draft(
            user, problem, problem.draft_files | {file: header + cluster.sample_code, "problem.toml": toml}
        )
        PromotedCluster.objects.create(
            problem=problem,
            cluster=cluster.id,
            name=name,
            file=file,
            students=cluster.students,
            sample=cluster.sample,
            promoted_by=user,
        )
        audit(
            user,
            Action.PROMOTE,
            problem.slug,
            f"named cluster {cluster.id} ({cluster.students} students) {name!r} as {file}",
        )
        return run_checks(user, problem)
