"""The restore drill: a course at the end of a term is backed up while the site runs, restored into a fresh
database, and reads the same there: the gradebook CSV, the standings, every submission's verdict, the comments,
the extension and the LMS links (issue 44 §2). PostgreSQL through pg_dump/pg_restore in this process; the
embedded SQLite through the operator's own commands in a site of its own."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from judge.submissions.models import Submission
from tests.conftest import REPO
from tests.databases import connected_to, fresh_database
from tests.drill import fill_course, observed


def test_a_postgresql_backup_restored_into_a_fresh_database_reads_the_same(
    transactional_db, django_user_model, tmp_path, client
):
    course = fill_course(django_user_model)
    before = observed(course)
    backup = tmp_path / "term.backup"
    call_command("backup", str(backup))

    with fresh_database("restored") as name, connected_to(name):
        call_command("restore", str(backup))
        after = observed(course)
        ada_wrong = Submission.objects.get(user__username="ada", verdict="wrong_answer")
        client.force_login(ada_wrong.user)
        page = client.get(f"/submissions/{ada_wrong.pk}/").content.decode()

    assert after == before
    assert len(after["verdicts"]) == 9 and len(after["feedback"]) == 2 and len(after["lti"]) == 2
    assert "Wrong answer" in page and "Check the <strong>axis</strong> you concatenate on." in page


def test_a_backup_taken_while_students_submit_restores_a_consistent_term(transactional_db, django_user_model, tmp_path):
    """pg_dump and the manifest read one snapshot: rows committed during the backup are all in it or all out."""
    course = fill_course(django_user_model)
    first = Submission.objects.order_by("pk").first()
    stop = threading.Event()

    def submit_meanwhile() -> None:
        while not stop.is_set():
            Submission.objects.create(
                user_id=first.user_id,
                problem_id=first.problem_id,
                code="x = 1\n",
                test_set_id=first.test_set_id,
                kind=first.kind,
            )
        connection.close()

    writer = threading.Thread(target=submit_meanwhile)
    writer.start()
    try:
        call_command("backup", str(tmp_path / "busy.backup"))
    finally:
        stop.set()
        writer.join()
    with fresh_database("busy") as name, connected_to(name):
        call_command("restore", str(tmp_path / "busy.backup"))
        restored = observed(course)
        pks = list(Submission.objects.order_by("pk").values_list("pk", flat=True))
    assert pks == list(range(pks[0], pks[0] + len(pks)))  # no hole: a prefix of what was committed
    assert restored["gradebook_csv"] == observed(course)["gradebook_csv"]


def run_site(args: list[str], env: dict, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300, **kwargs
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


@pytest.mark.heavy
def test_the_embedded_sqlite_site_is_backed_up_while_it_writes_and_restored_into_a_fresh_one(tmp_path):
    """The operator's commands on a site of its own: migrate, the course, ``backup`` while another connection
    holds a write transaction open, then ``restore`` into a new file and the same observation there."""
    site = {**os.environ, "JUDGE_VAR_DIR": str(tmp_path / "var"), "DATABASE_URL": f"sqlite:///{tmp_path}/site.db"}
    site.pop("JUDGE_TEST", None)
    site["SECRET_KEY"] = "drill-only"
    run_site(["migrate", "-v0"], site)
    fill = (
        "import json; from django.contrib.auth.models import User; from tests.drill import fill_course, observed; "
        "print(json.dumps(observed(fill_course(User))))"
    )
    before = json.loads(run_site(["shell", "--no-imports", "-c", fill], site).stdout)

    writer = sqlite3.connect(tmp_path / "site.db", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # a web request mid-transaction: the backup neither waits nor copies it
    writer.execute("UPDATE submissions_submission SET verdict = 'internal_error'")
    try:
        run_site(["backup", str(tmp_path / "site.backup")], site)
    finally:
        writer.execute("ROLLBACK")
        writer.close()

    restored = {**site, "DATABASE_URL": f"sqlite:///{tmp_path}/restored.db"}
    run_site(["restore", str(tmp_path / "site.backup")], restored)
    course = before["lti"][0]["context__course_id"]
    look = f"import json; from tests.drill import observed; print(json.dumps(observed({course})))"
    after = json.loads(run_site(["shell", "--no-imports", "-c", look], restored).stdout)
    assert after == before
    assert {row["verdict"] for row in after["verdicts"]} == {
        "accepted",
        "wrong_answer",
        "time_limit_exceeded",
        "runtime_error",
    }
