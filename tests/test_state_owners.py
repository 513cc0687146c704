"""Every state field has one owner: a submission's status, a problem's lifecycle (``published``), a gate run's
status and a course role are written only by the modules docs/contributors/state-machines.md names, so a new
path cannot change a state without the owner's rules (compare-and-set, audit row, standings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.apps import apps

from tests.state_owners import Guarded, Scanner, python_files

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("judge",)
# (app label, model, field) -> the modules that own it; born: creating a row sets the state.
OWNERS = {
    ("submissions", "Submission", "status"): (
        {"judge/submissions/services/intake.py", "judge/submissions/services/claims.py", "judge/grading/recording.py"},
        True,
    ),
    ("problems", "Problem", "published"): ({"judge/authoring/lifecycle.py"}, False),
    ("problems", "GateRun", "status"): ({"judge/authoring/lifecycle.py"}, True),
    ("courses", "Membership", "role"): ({"judge/courses/services.py"}, True),
}


def guarded() -> list[Guarded]:
    found = []
    for (app, name, field), (owners, born) in OWNERS.items():
        model = apps.get_model(app, name)
        model._meta.get_field(field)  # the field exists under this name
        accessors = {f.remote_field.get_accessor_name() for f in model._meta.fields if f.is_relation}
        found.append(
            Guarded(
                name,
                field,
                model._meta.db_table,
                frozenset(owners),
                born,
                frozenset(a for a in accessors if a and not a.endswith("+")),
            )
        )
    return found


def unique_fields(rules: list[Guarded]) -> set[str]:
    """Guarded field names that no other model has: an assignment to one is a write whatever the object."""
    guarded_models = {g.model for g in rules}
    unique = set()
    for name in {g.field for g in rules}:
        holders = {
            m.__name__ for m in apps.get_models() if any(getattr(f, "name", None) == name for f in m._meta.get_fields())
        }
        if holders <= guarded_models:
            unique.add(name)
    return unique


def scanner() -> Scanner:
    rules = guarded()
    return Scanner(rules, unique_fields(rules))


def test_no_module_writes_a_state_it_does_not_own():
    scan = scanner()
    trespasses = [
        str(w)
        for path in python_files(ROOT, SCANNED)
        for w in scan.trespasses(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert trespasses == [], "write these through their owner (docs/contributors/state-machines.md):\n" + "\n".join(
        trespasses
    )


def test_every_owner_exists_and_writes_what_it_owns():
    """The rule cannot pass by default: a renamed or emptied owner fails here instead."""
    scan = scanner()
    for g in scan.guarded:
        written = {(w.model, w.field) for owner in g.owners for w in scan.writes((ROOT / owner).read_text(), owner)}
        assert (g.model, g.field) in written, f"{sorted(g.owners)} no longer write {g.model}.{g.field}"


# --- The scanner, on small bad examples: each way to write a state is caught -----------------------------------

BAD = {
    "an update on the model's query": "from judge.problems.models import GateRun\n"
    "def f(pk):\n    GateRun.objects.filter(pk=pk).update(status='done')\n",
    "an update on a query kept in a name": "from judge.problems.models import GateRun as Run\n"
    "def f(pk):\n    runs = Run.objects.filter(pk=pk)\n    later = runs.exclude(pk=1)\n"
    "    later.update(status='done')\n",
    "an update through a related manager": "def f(problem):\n    problem.gate_runs.filter(status='queued').update(status='done')\n",
    "a dict splatted into an update": "from judge.submissions.models import Submission\n"
    "def f():\n    Submission.objects.update(**{'status': 'done'})\n",
    "a dict literal kept in a name and splatted": "from judge.submissions.models import Submission\n"
    "def f():\n    change = {'status': 'done', 'verdict': ''}\n    Submission.objects.all().update(**change)\n",
    "a row created (born queued)": "from judge.problems.models import GateRun\n"
    "def f(problem):\n    GateRun.objects.create(problem=problem)\n",
    "a membership made with get_or_create's defaults": "from judge.courses.models import Membership\n"
    "def f(course, user):\n    Membership.objects.get_or_create(course=course, user=user)\n",
    "the constructor with the field": "from judge.problems.models import Problem\n"
    "def f():\n    return Problem(slug='x', published=True)\n",
    "bulk_update naming the field": "from judge.courses.models import Membership\n"
    "def f(rows):\n    Membership.objects.bulk_update(rows, ['role'])\n",
    "an attribute of a row from get_or_create, saved": "from judge.courses.models import Membership\n"
    "def f(c, u):\n    row, _ = Membership.objects.get_or_create(course=c, user=u)\n"
    "    row.role = 'ta'\n    row.save(update_fields=['role'])\n",
    "a tuple assignment in a loop over a query": "from judge.courses.models import Membership\n"
    "def f(c):\n    for m in Membership.objects.filter(course=c):\n        m.section, m.role = None, 'ta'\n",
    "an attribute of an annotated parameter": "from judge.problems.models import Problem\n"
    "def f(problem: Problem):\n    problem.published = False\n    problem.save()\n",
    "a field only guarded models have, on any object": "def f(anything):\n    anything.role = 'instructor'\n",
    "setattr with the field's name": "from judge.problems.models import GateRun\n"
    "def f(pk):\n    run = GateRun.objects.get(pk=pk)\n    setattr(run, 'status', 'done')\n",
    "an inner function using the outer function's query": "from judge.problems.models import GateRun\n"
    "def f(pk):\n    runs = GateRun.objects.filter(pk=pk)\n    def g():\n        runs.update(status='done')\n",
    "a lambda run on commit": "from django.db import transaction\nfrom judge.submissions.models import Submission\n"
    "def f(pk):\n    transaction.on_commit(lambda: Submission.objects.filter(pk=pk).update(status='queued'))\n",
    "the model reached through its module": "from judge.problems import models\n"
    "def f():\n    models.GateRun.objects.all().update(status='done')\n",
    "SQL written out": "def f(cursor):\n"
    "    cursor.execute('UPDATE submissions_submission SET verdict = %s, status = %s WHERE id = %s')\n",
}

GOOD = {
    "reads and filters on the state": "from judge.submissions.models import Status, Submission\n"
    "def f(pk):\n    return Submission.objects.filter(pk=pk, status=Status.DONE).update(speed={})\n",
    "another model's field of the same name": "from judge.lti.models import ScorePost\n"
    "def f(pk):\n    ScorePost.objects.filter(pk=pk).update(status='sent')\n    row = ScorePost()\n"
    "    row.status = 'sent'\n",
    "an unknown object's status": "def f(job):\n    job.status = 'done'\n",
    "a problem made as a draft": "from judge.problems.models import Problem\n"
    "def f(fields):\n    Problem.objects.create(slug='x', **fields)\n",
    "other fields of a guarded model": "from judge.problems.models import GateRun\n"
    "def f(run: GateRun):\n    run.error = 'x'\n    run.save(update_fields=['error'])\n",
    "SQL that reads": "SQL = 'SELECT status FROM submissions_submission WHERE status = %s'\n",
}


@pytest.mark.parametrize("example", BAD, ids=list(BAD))
def test_the_scanner_catches_a_state_written_outside_its_owner(example):
    scan = scanner()
    caught = scan.trespasses(BAD[example], "judge/somewhere/else.py")
    assert caught, f"not caught: {example}"
    written = (caught[0].model, caught[0].field)
    owner = min(next(g.owners for g in scan.guarded if (g.model, g.field) == written))
    assert written not in {(w.model, w.field) for w in scan.trespasses(BAD[example], owner)}  # the owner may


@pytest.mark.parametrize("example", GOOD, ids=list(GOOD))
def test_the_scanner_leaves_reads_and_other_fields_alone(example):
    assert scanner().trespasses(GOOD[example], "judge/somewhere/else.py") == []
