"""npjudge against a live server and a real worker: login, list, pull, test locally, submit, status."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import read_solution

pytestmark = pytest.mark.slow
SLUG = "prepend_class_token"


def npjudge(home: Path, *args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = os.environ | {"NPJUDGE_CONFIG_DIR": str(home / "config"), "NO_COLOR": ""}
    env.pop("NPJUDGE_TOKEN", None)
    return subprocess.run(
        [sys.executable, "-m", "npjudge.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or home,
        timeout=180,
    )


def test_a_student_pulls_tests_and_submits_from_the_terminal(live_server, problems, grading_worker, student, tmp_path):
    from judge.tokens.services import create_token

    _, secret = create_token(student, "terminal", ["read", "submit"])
    assert npjudge(tmp_path, "login", "--server", live_server.url, stdin="npj_wrong\n").returncode == 2
    login = npjudge(tmp_path, "login", "--server", live_server.url, stdin=secret + "\n")
    assert login.returncode == 0, login.stderr
    assert "as ada" in login.stdout
    assert stat.S_IMODE((tmp_path / "config" / "config.json").stat().st_mode) == 0o600

    listed = npjudge(tmp_path, "list")
    assert listed.returncode == 0 and SLUG in listed.stdout

    pulled = npjudge(tmp_path, "pull", SLUG)
    assert pulled.returncode == 0, pulled.stderr
    folder = tmp_path / SLUG
    assert (folder / "statement.md").read_text() and list(folder.glob("examples/*/expected.npy"))

    starter = npjudge(tmp_path, "test", cwd=folder)  # the starter, checked here by the engine
    assert starter.returncode == 1 and "Local test" in starter.stdout
    (folder / "solution.py").write_text(read_solution(SLUG, "wrong/float32.py"))
    dtype = npjudge(tmp_path, "test", cwd=folder)
    assert dtype.returncode == 1 and "Wrong dtype" in dtype.stdout and "float32" in dtype.stdout
    (folder / "solution.py").write_text(read_solution(SLUG))
    local = npjudge(tmp_path, "test", cwd=folder)
    assert local.returncode == 0 and "✓ Accepted" in local.stdout and "\033[" not in local.stdout

    (folder / "wrong.py").write_text(read_solution(SLUG, "wrong/appended.py"))
    wrong = npjudge(tmp_path, "submit", "wrong.py", cwd=folder)
    assert wrong.returncode == 1, wrong.stderr
    assert "✗ Wrong answer" in wrong.stdout
    assert "Looks like a known mistake: Class token appended instead of prepended" in wrong.stdout
    assert "(hidden)" in wrong.stdout and "queued" in wrong.stderr  # the progress, one line per change when piped

    right = npjudge(tmp_path, "submit", "solution.py", cwd=folder)
    assert right.returncode == 0, right.stdout + right.stderr
    assert "✓ Accepted" in right.stdout

    wrong_id = wrong.stdout.split()[0].lstrip("#")
    again = npjudge(tmp_path, "status", wrong_id)
    assert again.returncode == 1 and "Class token appended instead of prepended" in again.stdout
    assert npjudge(tmp_path, "status", "999999").returncode == 2


def test_a_student_exports_their_work_from_the_terminal(live_server, student, tmp_path):
    from engine.verdicts import Verdict
    from judge.tokens.services import create_token
    from tests.boards import quick_problem
    from tests.students import graded

    problem = quick_problem("add_one")
    first = graded(student, problem, Verdict.WRONG_ANSWER, code="def f(x):\n    return x\n", minute=1)
    second = graded(student, problem, Verdict.ACCEPTED, code="def f(x):\n    return x + 1\n", minute=2)
    _, secret = create_token(student, "terminal", ["read"])
    assert npjudge(tmp_path, "login", "--server", live_server.url, stdin=secret + "\n").returncode == 0

    exported = npjudge(tmp_path, "export", "-o", "work.zip")
    assert exported.returncode == 0, exported.stderr
    assert "Saved your work in" in exported.stdout and not list(tmp_path.glob("*.part"))
    with zipfile.ZipFile(tmp_path / "work.zip") as archive:
        archive.extractall(tmp_path)
    repo = tmp_path / "npjudge-ada"
    log = subprocess.run(["git", "log", "--reverse", "--format=%s"], cwd=repo, capture_output=True, text=True)
    assert log.stdout.splitlines() == [f"Add one: Wrong answer (#{first.pk})", f"Add one: Accepted (#{second.pk})"]
    shown = subprocess.run(["git", "show", "HEAD:add_one/solution.py"], cwd=repo, capture_output=True, text=True)
    assert shown.stdout == "def f(x):\n    return x + 1\n"

    named = npjudge(tmp_path, "export", "--only", "accepted")  # the server's name for it, in this folder
    assert named.returncode == 0, named.stderr
    assert len(list(tmp_path.glob("npjudge-ada-*.zip"))) == 1
